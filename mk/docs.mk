# symwalk's documentation site: `make docs`, `make docs-screenshot`.
#
# scripts/docs/capture.py boots the guest to capture the site's real data
# (the walks' trace events, a gdb session with the helpers, each lab in
# batch) into build/docs/data, again only when the kernel, the initramfs, the
# helpers, the labs or the docs scenarios changed; scripts/docs/gen.py
# assembles the Sphinx sources in build/docs/src from Documentation/ and
# that data; sphinx-build (Debian's, warnings as errors) renders
# build/docs/html. `make docs` needs the tree, and a built kernel: it never
# builds one (make kernel, or make check, does).

DOCS        := $(BUILD)/docs
DOCS_PYTHON := /usr/bin/python3
SPHINXBUILD := /usr/bin/sphinx-build
DOCS_DATA_DEPS := $(wildcard $(KBUILD)/arch/x86/boot/bzImage $(KBUILD)/vmlinux) \
	$(INITRAMFS) $(wildcard gdb-scripts/*.py gdb-scripts/symwalk_gdb/*.py labs/*/*) \
	$(wildcard guest/scenarios/docs-*.sh) Documentation/helper-examples.yaml \
	scripts/docs/capture.py scripts/guest.py
SCREENSHOT_FLAGS := --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--window-size=1280,3200

.PHONY: docs docs-deps docs-check docs-screenshot

docs-deps:
	@scripts/deps.sh python3-sphinx python3-yaml graphviz

docs: tree docs-deps
	@$(MAKE) -s --no-print-directory $(DOCS)/data/captured
	@echo "docs: generating the sources in $(DOCS)/src"
	@$(DOCS_PYTHON) scripts/docs/gen.py --tree $(TREE) --data $(DOCS)/data --out $(DOCS)/src
	@echo "docs: sphinx-build, warnings as errors, into $(DOCS)/html"
	@rm -rf $(DOCS)/html $(DOCS)/doctrees
	@$(SPHINXBUILD) -q -E -W --keep-going -j 2 -d $(DOCS)/doctrees -c Documentation \
		$(DOCS)/src $(DOCS)/html 2>$(DOCS)/warnings.txt; rc=$$?; \
	n=$$(grep -c 'WARNING\|ERROR' $(DOCS)/warnings.txt); \
	if [ $$rc -ne 0 ]; then cat $(DOCS)/warnings.txt >&2; \
		echo "docs: sphinx-build failed with $$n warning(s) (see above, and $(DOCS)/warnings.txt)" >&2; \
		exit 1; fi; \
	echo "docs: $(DOCS)/html/index.html ($$n warnings)"

$(DOCS)/data/captured: $(DOCS_DATA_DEPS)
	@mkdir -p $(@D)
	@$(DOCS_PYTHON) scripts/docs/capture.py --kbuild $(KBUILD) --initramfs $(INITRAMFS) --out $(@D)
	@touch $@

# The checks make check runs on the built site (tests/host/docs_test.sh).
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
