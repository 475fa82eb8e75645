# symwalk's documentation site: `make docs`, `make docs-screenshot`.
#
# The site shows the guest runs that make check's guest parts left in
# build/run (scripts/docs_data.py lists them): each lab's page the batch run
# its expectations judged, the trace of its trigger, the helper examples'
# gdb session. make docs boots nothing: without those results it says to
# run make check. scripts/docs/gen.py assembles the Sphinx sources in
# build/docs/src from Documentation/, the tree and those results;
# sphinx-build (Debian's, warnings as errors) renders build/docs/html.

DOCS        := $(BUILD)/docs
DOCS_RUN    ?= $(BUILD)/run
DOCS_PYTHON := /usr/bin/python3
SPHINXBUILD := /usr/bin/sphinx-build
SCREENSHOT_FLAGS := --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--window-size=1280,3200

.PHONY: docs docs-deps docs-check docs-screenshot

docs-deps:
	@scripts/deps.sh python3-sphinx python3-yaml graphviz

docs: tree docs-deps
	@echo "docs: generating the sources in $(DOCS)/src from the runs in $(DOCS_RUN)"
	@SYMWALK_RUN=$(abspath $(DOCS_RUN)) $(DOCS_PYTHON) scripts/docs/gen.py --tree $(TREE) --data $(DOCS_RUN) --out $(DOCS)/src
	@echo "docs: sphinx-build, warnings as errors, into $(DOCS)/html"
	@rm -rf $(DOCS)/html $(DOCS)/doctrees
	@SYMWALK_RUN=$(abspath $(DOCS_RUN)) $(SPHINXBUILD) -q -E -W --keep-going -j 2 -d $(DOCS)/doctrees -c Documentation \
		$(DOCS)/src $(DOCS)/html 2>$(DOCS)/warnings.txt; rc=$$?; \
	n=$$(grep -c 'WARNING\|ERROR' $(DOCS)/warnings.txt); \
	if [ $$rc -ne 0 ]; then cat $(DOCS)/warnings.txt >&2; \
		echo "docs: sphinx-build failed with $$n warning(s) (see above, and $(DOCS)/warnings.txt)" >&2; \
		exit 1; fi; \
	echo "docs: $(DOCS)/html/index.html ($$n warnings)"

# The checks make check runs on the built site (tests/docs/site_test.sh).
docs-check: docs
	@$(DOCS_PYTHON) scripts/docs/check_links.py $(DOCS)/html
	@$(DOCS_PYTHON) scripts/docs/check_functions.py $(DOCS)/html $(TREE)

docs-screenshot: docs
	@scripts/deps.sh chromium
	@mkdir -p $(DOCS)/screenshots
	@lab=$$(ls $(DOCS)/html/labs | grep -v '^index.html$$' | grep '\.html$$' | head -n 1); \
	for shot in landing:index.html lab:labs/$$lab; do \
		out=$(DOCS)/screenshots/$${shot%%:*}.png; page=$(CURDIR)/$(DOCS)/html/$${shot#*:}; \
		profile=$$(mktemp -d); \
		timeout 60 chromium $(SCREENSHOT_FLAGS) --user-data-dir=$$profile \
			--screenshot=$(CURDIR)/$$out file://$$page >$(DOCS)/screenshots/chromium.log 2>&1; \
		rc=$$?; rm -rf $$profile; \
		if [ $$rc -ne 0 ] || [ ! -s $$out ]; then \
			tail -n 5 $(DOCS)/screenshots/chromium.log >&2; \
			echo "docs-screenshot: chromium could not render $$page" >&2; exit 1; fi; \
		echo "docs-screenshot: $$out ($${shot#*:})"; \
	done
