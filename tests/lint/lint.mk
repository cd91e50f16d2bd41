# tests/lint/: checks on the tree itself: which file may include or link
# which (deps-lint.sh).
TESTS += tests/lint/deps-lint.sh
EXTRA_DIST += tests/lint/deps-lint.sh tools/lint-deps tools/deps.map
