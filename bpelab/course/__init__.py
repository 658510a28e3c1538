"""The course's own infrastructure, not part of any lesson's algorithm.

``paths`` finds the course's data, ``corpora`` reads it, ``tokenizer_data`` places the offline
vocabularies where tiktoken looks (``python -m bpelab.setup_data``), ``setup_check`` is lesson 00's
environment check, and ``html_export`` writes the course as static web pages (``make html``).
"""
