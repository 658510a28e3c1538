"""The page template of ``make html``: nbconvert's "lab" page with the course's own scripts.

nbconvert's default page loads require.js, MathJax and the widget manager from CDNs; this template
loads them from the site's ``_static/`` folder (see ``html_export``), adds a navigation bar and a note
at the top, and keeps each widget's text summary under it for a browser that cannot draw the widget.
"""

from __future__ import annotations

from typing import Any

from jinja2 import DictLoader

from bpelab.widgets.fallback import draw_hint

PAGE_TEMPLATE = r"""
{%- extends 'index.html.j2' -%}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{% block jupyter_widgets %}
{%- if "widgets" in nb.metadata -%}
<script>window.__jupyter_widgets_assets_path__ = "_static/html-manager/"; window.bpelabStatic = true;</script>
<script src="_static/requirejs/require.js"></script>
<script>require.config({paths: {anywidget: "_static/anywidget/index"}});</script>
<script src="_static/html-manager/embed-amd.js"></script>
{%- endif -%}
{% endblock jupyter_widgets %}
{%- block html_head_js_mathjax -%}
{%- if nb.metadata.get("bpelab_math") -%}
<script>
// MathJax 3, with the one MathJax 2 call the widget library makes (Hub.Queue) mapped onto it
window.MathJax = {
  tex: {inlineMath: [["$", "$"], ["\\(", "\\)"]], processEscapes: true},
  Hub: {Queue: function () {}},
  startup: {ready: function () {
    MathJax.startup.defaultReady();
    MathJax.Hub = {Queue: function (job) {
      var element = Array.isArray(job) ? job[2] : null;
      if (element) { MathJax.typesetPromise([element]); }
    }};
  }}
};
</script>
<script src="_static/mathjax/tex-chtml.js" async></script>
{%- endif -%}
{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{% block extra_css %}
<style type="text/css">
.bpe-site-nav { font-family: var(--jp-ui-font-family, sans-serif); font-size: 14px; padding: 8px 16px;
  margin: 0 0 12px 0; background: #f3f6fa; border-bottom: 1px solid #d0d7de; }
.bpe-site-nav a { margin-right: 16px; color: #0b4f8a; }
.bpe-site-nav .bpe-site-note { color: #4a4a4a; }
/* WCAG 2.1 AA contrast (4.5:1) on the code cells' grey: JupyterLab's light theme draws prompts at half
   opacity (2.2:1) and a few syntax colours at 4.2-4.4:1; the same hues, darker */
body {
  --jp-cell-prompt-not-active-opacity: 1;
  --jp-cell-prompt-not-active-font-color: #616161;
  --jp-mirror-editor-operator-color: #8a1ad6;
  --jp-mirror-editor-meta-color: #8a1ad6;
  --jp-mirror-editor-number-color: #007000;
  --jp-mirror-editor-quote-color: #007000;
  --jp-mirror-editor-comment-color: #3a7070;
  --jp-mirror-editor-atom-color: #4040c0;
  --jp-mirror-editor-bracket-color: #5f5f3f;
  --jp-mirror-editor-error-color: #c00000;
}
/* links in running text are underlined: colour alone does not mark them (WCAG 1.4.1); "body" outranks
   the theme's own rule, which comes later in the page */
body .jp-RenderedHTMLCommon a:link, body .jp-RenderedHTMLCommon a:visited, .bpe-site-nav a {
  text-decoration: underline;
}
.jupyter-widgets { font-family: var(--jp-ui-font-family); font-size: var(--jp-ui-font-size1); }
.bpe-widget-fallback { white-space: pre-wrap; font-size: var(--jp-code-font-size, 13px); }
.jupyter-widgets:has(> .widget-subarea) > .bpe-widget-fallback { display: none; }
</style>
{% endblock extra_css %}
{%- block body_header -%}
{{ super() }}
<nav class="bpe-site-nav"><a href="index.html">bpelab: all lessons</a>
{%- if resources.bpelab_guide %}<a href="TEACHING.html">Teacher's guide</a>{% endif %}
<span class="bpe-site-note">{{ resources.bpelab_note }}</span></nav>
{%- endblock body_header -%}
{%- block data_widget_view scoped %}
<div class="jupyter-widgets jp-OutputArea-output {{ extra_class }}">
<script type="application/vnd.jupyter.widget-view+json">
{{ output.data['application/vnd.jupyter.widget-view+json'] | json_dumps | escape_html_script }}
</script>
{%- if 'text/plain' in output.data %}
<pre class="bpe-widget-fallback">{{ output.data['text/plain'] | without_draw_hint | escape }}</pre>
{%- endif %}
</div>
{%- endblock data_widget_view -%}
"""
"""nbconvert's "lab" page with local scripts only, a navigation bar, and each widget's text
summary kept under it (hidden once the widget manager has drawn the widget)."""


def without_draw_hint(summary: str) -> str:
    """A widget's text summary without its "(Run this cell to draw ...)" line: a page has no cell to run."""
    lines = summary.split("\n")
    if lines and lines[-1].startswith(draw_hint("").split(" the ")[0]):
        lines.pop()
    return "\n".join(lines)


def page_exporter() -> Any:
    """An nbconvert HTML exporter with this template (nbconvert is imported here: it is slow to import
    and only ``make html`` needs it)."""
    from nbconvert import HTMLExporter

    return HTMLExporter(
        filters={"without_draw_hint": without_draw_hint},
        template_name="lab",
        extra_loaders=[DictLoader({"bpelab_page.html.j2": PAGE_TEMPLATE})],
        template_file="bpelab_page.html.j2",
    )
