"""Memory files: export a store to a portable file and import it back, losing nothing.

The native format (``.hela``, specified in ``docs/memory-file-format.md``) is a zip archive
with a ``manifest.json`` and one JSON-lines member per table; records reference each other
by stable ``uid`` strings, never by the store's numeric ids, so importing the same file twice
adds nothing the second time.  The importer also reads a plain JSON list of memories (the
streaming-memory layout) and plain text / Markdown (one memory per paragraph).

Import is all-or-nothing: the whole file is validated first (format version, schema, types,
sizes, references, archive safety); memories that need embeddings are embedded in a batch;
then everything is written in one transaction.  Any problem with the file raises one
`MemoryFileError` and leaves the store exactly as it was.

The package is split by stage (each module imports its siblings, never this one):

- `format`: names, versions, members, `Limits`, `MemoryFileError`, JSON helpers, the
  archive-member check and the record-source interface;
- `validate`: field checkers, schemas and the one validating read of a whole file;
- `readers`: the ``.hela`` reader, the plain JSON / text reader, `json_list_items`;
- `detect`: which reader a path needs (history exports go to `hela_desktop.importers`);
- `export`: `export_store` (``.hela`` or Markdown) and `Selection`;
- `merge`: writing a validated file into the store, one function per table;
- `importing`: `import_file`, the pipeline (read, validate, embed, merge);
- `report`: `ExportReport`, `ImportReport`, `ProgressText`; `streams`: helper threads.

The SQL lives in `hela_desktop.store.transfer`; the ``export`` / ``import`` commands in
`hela_desktop.cli.memfile`.

Public API: `export_store`, `import_file`, `Selection`, `ExportReport`, `ImportReport`,
`MemoryFileError`, `ImportCancelled`, `Limits`, `ProgressText`, `json_list_items`.
"""

from __future__ import annotations

from .export import Selection, export_store
from .format import (
    DEFAULT_LIMITS,
    FORMAT_NAME,
    FORMAT_VERSION,
    MANIFEST,
    MEMBER_ORDER,
    Limits,
    MemoryFileError,
    Progress,
    check_zip_member,
)
from .importing import ImportCancelled, import_file
from .readers import json_list_items
from .report import ExportReport, ImportReport, ProgressText

__all__ = [
    "DEFAULT_LIMITS", "FORMAT_NAME", "FORMAT_VERSION", "MANIFEST", "MEMBER_ORDER",
    "ExportReport", "ImportCancelled", "ImportReport", "Limits", "MemoryFileError", "Progress",
    "ProgressText", "Selection", "check_zip_member", "export_store", "import_file",
    "json_list_items",
]
