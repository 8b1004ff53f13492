from django import template
from django.utils.safestring import mark_safe

from base import sections

register = template.Library()


@register.simple_tag(takes_context=True)
def page_sections(context, page, **kwargs):
    """Render the sections registered for ``page`` (base.sections), in order.

    Each section's template sees only its provider's context plus ``request`` and
    ``csrf_token`` (as an inclusion tag's would), so a section can hold a form.
    """
    request = context.get("request")
    parts = []
    for template_name, values in sections.sections_to_render(page, request, **kwargs):
        section_context = context.new({**values, "request": request})
        if context.get("csrf_token"):
            section_context["csrf_token"] = context["csrf_token"]
        parts.append(context.template.engine.get_template(template_name).render(section_context))
    return mark_safe("".join(parts))  # each part was autoescaped by its own template
