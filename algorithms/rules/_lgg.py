"""(placeholder: filled by the chapter's work)."""

__all__: list[str] = []
