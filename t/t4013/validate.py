# Validates a SARIF log (argv[2]) against the schema (argv[1]): exit 1 with
# each error's path and message when it does not conform.
import json
import sys

import jsonschema

with open(sys.argv[1]) as f:
    schema = json.load(f)
with open(sys.argv[2]) as f:
    log = json.load(f)
validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
for e in errors:
    print("/".join(str(p) for p in e.path) + ": " + e.message)
sys.exit(1 if errors else 0)
