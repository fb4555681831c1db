"""The findings layer: a pass report turned into diagnostics (text, JSON
log, SARIF: diagnostics.py) and the HTML report (html_report.py). The Report
itself (coalda/report.py) is shared vocabulary: the driver builds it.

May import: the shared vocabulary (errors, ir, verdicts, buffers, report) and
the driver (the CUDA tree, to tell system headers). Nothing from emulator or
check."""
