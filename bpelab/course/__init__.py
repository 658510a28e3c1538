"""The course's own infrastructure, not part of any lesson's algorithm.

``corpora`` reads the course's data (``bpelab.paths`` finds it), ``tokenizer_data`` builds the offline
vocabularies and places them where tiktoken looks (``python -m bpelab.setup_data``), ``setup_check`` is lesson 00's
environment check, and ``html_export`` writes the course as static web pages (``make html``).
"""
