# tests/lint/: checks on the tree itself (dependency lint, issue 11).
TESTS += tests/lint/deps-lint.sh
EXTRA_DIST += tests/lint/deps-lint.sh tools/lint-deps tools/deps.map
