"""conftest.worker_group: which tests `make pytest` (`--dist loadgroup`)
keeps on one worker, so that what they share is built once."""

from __future__ import annotations

from conftest import worker_group


def test_an_adversarial_corpus_file_is_one_group() -> None:
    assert worker_group("tests/test_adversarial.py::test_adversarial_kernel_computes_the_original_bytes"
                        "[staging-rmw_basic-O3]") == "adversarial:staging"
    assert worker_group("tests/test_adversarial.py::test_every_kernel_has_a_launch_spec[staging]") \
        == "adversarial:staging"
    assert worker_group("tests/test_adversarial.py::test_known_miscompiles_are_rewritten_today") is None


def test_a_file_with_a_module_fixture_is_one_group() -> None:
    """test_walkthrough.py runs the README's commands once, in a module
    fixture, for all its tests."""
    assert worker_group("tests/test_walkthrough.py::test_sarif_is_valid_and_names_both_files") \
        == "file:tests/test_walkthrough.py"


def test_other_tests_are_scheduled_alone() -> None:
    assert worker_group("tests/test_ir_cache.py::test_off_turns_it_off") is None
