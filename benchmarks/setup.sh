#!/usr/bin/env bash
# Make the benchmark's own environment: Velvet plus its peers, apart from the dev install.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python3 -m venv "$here/.venv"
"$here/.venv/bin/pip" install --disable-pip-version-check -q -e "$here/.." -r "$here/requirements.txt"
echo "ready: $here/.venv/bin/python $here/engine_speed.py"
