#!/usr/bin/env bash
# Fails, naming them, when the Chinese catalogue is behind the sources: a text of lockscope or
# lockscopectl that resources/translations/lockscope_zh_CN.ts lacks (new), leaves unfinished,
# or still carries though no source says it any more (vanished). lupdate runs over the same
# folders as `ninja update_translations` (app/CMakeLists.txt), into a scratch copy.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

catalogue=resources/translations/lockscope_zh_CN.ts
lupdate="$(qtpaths6 --query QT_HOST_BINS)/lupdate"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp "$catalogue" "$scratch/lockscope_zh_CN.ts"
"$lupdate" -silent -locations none -I . app/core app/ctl app/gui widgets \
  -ts "$scratch/lockscope_zh_CN.ts"

# One line per message lupdate marked: context, why, and the English text.
awk '
  /<name>/ { context = $0; gsub(/.*<name>|<\/name>.*/, "", context) }
  /<message/ { message = ""; inside = 1 }
  inside { message = message $0 "\n" }
  /<\/message>/ {
    inside = 0
    if (match(message, /type="(unfinished|vanished|obsolete)"/)) {
      why = substr(message, RSTART + 6, RLENGTH - 7)
      if (why == "unfinished" && message !~ /<translation type="unfinished">[^<]/ &&
          message !~ /<numerusform>[^<]/)
        why = "new or untranslated"
      text = message
      sub(/.*<source>/, "", text)
      sub(/<\/source>.*/, "", text)
      gsub(/\n/, "\\n", text)
      printf "  %s [%s]: %s\n", context, why, text
    }
  }' "$scratch/lockscope_zh_CN.ts" >"$scratch/problems"

if [ -s "$scratch/problems" ]; then
  echo "error: $catalogue is behind the sources ($(wc -l <"$scratch/problems") messages):" >&2
  cat "$scratch/problems" >&2
  echo "Run 'ninja -C build update_translations', then translate every message in $catalogue" \
    "and remove its type=\"unfinished\"." >&2
  exit 1
fi
if ! diff -u "$catalogue" "$scratch/lockscope_zh_CN.ts" >"$scratch/diff"; then
  echo "error: $catalogue is not in lupdate's form; 'ninja -C build update_translations' writes it:" >&2
  cat "$scratch/diff" >&2
  exit 1
fi
echo "$catalogue: every message translated"
