"""How well the review finds the checklist's mistakes: the labelled corpus of excerpts, and whole
repositories labelled before it ran."""
