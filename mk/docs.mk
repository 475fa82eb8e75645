# symwalk's documentation site: `make docs`, `make docs-screenshot`.
#
# sphinx-build (Debian's, warnings as errors) reads Documentation/ in place:
# its pages and the directives of Documentation/sphinx/ in them, which
# render the labs, the gdb helpers, the namei events, the series and the
# stack pictures (sphinx.ext.graphviz) from the tree and from the results
# make check's guest parts left in build/run, its run folder, which only it
# writes (scripts/symwalk/docs_data.py lists them; SYMWALK_RUN tells the
# directives where). make docs boots nothing:
# without those results it says to run make check. tests/docs/ checks the
# built site.

DOCS        := $(BUILD)/docs
DOCS_RUN    ?= $(BUILD)/run
SPHINXBUILD := /usr/bin/sphinx-build
.PHONY: docs docs-deps docs-screenshot

docs-deps:
	@scripts/deps.sh python3-sphinx python3-yaml graphviz

docs: tree docs-deps
	@echo "docs: sphinx-build of Documentation/, warnings as errors, from the runs in $(DOCS_RUN) into $(DOCS)/html"
	@rm -rf $(DOCS)/html $(DOCS)/doctrees
	@mkdir -p $(DOCS)
	@SYMWALK_RUN=$(abspath $(DOCS_RUN)) SYMWALK_TREE=$(abspath $(TREE)) \
		$(SPHINXBUILD) -q -E -W --keep-going -j 2 -d $(DOCS)/doctrees \
		Documentation $(DOCS)/html 2>$(DOCS)/warnings.txt; rc=$$?; \
	n=$$(grep -c 'WARNING\|ERROR' $(DOCS)/warnings.txt); \
	if [ $$rc -ne 0 ]; then cat $(DOCS)/warnings.txt >&2; \
		echo "docs: sphinx-build failed, $$n warning(s) (see above, and $(DOCS)/warnings.txt)" >&2; \
		exit 1; fi; \
	echo "docs: $(DOCS)/html/index.html ($$n warnings)"

# The landing page, lab 06 and the stack page on a laptop and a phone, as
# PNGs in build/docs/, taken by chromium through selenium.
docs-screenshot: docs
	@scripts/deps.sh
	@scripts/docs_screenshot.py
