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
SCREENSHOT_FLAGS := --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--window-size=1280,3200

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
