"""The tiny TOML writer: whatever it writes, ``tomllib`` reads back unchanged."""

import tomllib

from jaxwaits import toml_writer

DATA = {
    "first": "0.4.16",
    "releases": ["0.4.16", "0.4.17"],
    "count": 3,
    "flag": True,
    "pieces": {
        "api.block_until_ready": {
            "file": "jax/_src/api.py",
            "lines": [10, 20],
            "history": [
                {"from": "a", "diff": "--- x\n+++ y\n-  '''doc'''\n+  \"\"\"doc\"\"\"\n"},
                {"from": "b", "why": "ends with a quote'\nsecond line"},
                {"from": "c", "why": 'tab\tback\\slash "quoted"\rcarriage\x01control'},
            ],
        },
        "plain": {"file": "f"},
    },
}


def test_round_trip():
    assert tomllib.loads(toml_writer.dumps(DATA, "a header\nsecond line")) == DATA


def test_multi_line_text_stays_readable():
    text = toml_writer.dumps({"diff": "--- a\n+++ b\n-old\n+new\n"})
    assert text == "diff = '''\n--- a\n+++ b\n-old\n+new\n'''\n"


def test_a_table_of_tables_gets_no_empty_header():
    assert "[pieces]\n" not in toml_writer.dumps(DATA)
