#!/bin/bash
# The pages of the site build_test.sh built: each part of the site is there
# (a page per lab with its narrative and picture, per helper, per event, per
# patch; the kernel's path-lookup page and kernel-doc; the pictures).
# links_test.py and functions_test.py check its links and the functions it
# names, xref_test.py that its names link to kernel-doc and source,
# series_test.py the patch pages.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/tap.sh"
cd "$top"
html=build/docs/html
py=/usr/bin/python3

# has PAGE REGEX...: PAGE exists and holds each REGEX.
has() {
	local page=$html/$1
	shift
	[[ -f $page ]] || { echo "$page is missing"; return 1; }
	for re in "$@"; do
		grep -qE -- "$re" "$page" || { echo "$page lacks $re"; return 1; }
	done
}

# says PAGE TEXT...: PAGE's text (tags removed) holds each TEXT.
says() {
	local page=$html/$1 text
	shift
	[[ -f $page ]] || { echo "$page is missing"; return 1; }
	text=$(sed -e 's/<[^>]*>//g' "$page" | $py -c 'import html,sys; print(html.unescape(sys.stdin.read()))')
	for s in "$@"; do
		grep -qF -- "$s" <<<"$text" || { echo "$page does not say: $s"; return 1; }
	done
}

check "the landing page: the two commands and the flow" has index.html \
	'<object data="[^"]*graphviz-[0-9a-f]*\.svg"'
check "the landing page says what the two commands do" says index.html \
	'make lab      # boot the guest paused' 'make check    # build everything'
check "the footer names the commit the site was built from" says index.html \
	"Built from symwalk commit $(git log -1 --format='%h of %cs')"

# without_js PAGE: PAGE read without JavaScript shows its strips: each has a
# picture outside its steppers, and each stepper (symwalk.js shows it) is
# hidden.
without_js() {
	[[ -f $html/$1 ]] || { echo "$html/$1 is missing"; return 1; }
	$py - "$html/$1" <<'EOF'
import sys
from html.parser import HTMLParser

class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.open_divs, self.in_stepper = [], 0
        self.steppers = self.shown_steppers = self.strips = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "div":
            stepper = "symwalk-stepper" in classes
            self.open_divs.append(stepper)
            self.in_stepper += stepper
            self.steppers += stepper
            self.shown_steppers += stepper and "hidden" not in attrs
        elif tag == "object" and "graphviz" in classes and not self.in_stepper:
            self.strips += 1

    def handle_endtag(self, tag):
        if tag == "div" and self.open_divs:
            self.in_stepper -= self.open_divs.pop()

page = Page()
page.feed(open(sys.argv[1]).read())
if not page.steppers or page.shown_steppers or page.strips < page.steppers:
    sys.exit("{}: {} stepper(s), {} not hidden, {} picture(s) outside them".format(
        sys.argv[1], page.steppers, page.shown_steppers, page.strips))
EOF
}

for lab in labs/*/; do
	lab=${lab%/}
	name=${lab#labs/}
	[[ -f $lab/setup.sh ]] || continue
	if [[ -f $lab/lab.rst ]]; then
		first=$($py -c 'import sys,re
for line in open(sys.argv[1]):
    s = line.strip()
    if s and not s.startswith("..") and not re.fullmatch(r"([=\-~^*#])\1+", s):
        print(s.replace("``", "")[:40]); break' "$lab/lab.rst")
		check "lab $name: its page renders labs/$name/lab.rst" says "labs/$name.html" "$first"
	else
		not_ok "lab $name: its page renders labs/$name/lab.rst"
		echo "# labs/$name/lab.rst is missing"
	fi
	if grep -q 'No lookup of the lab.s trigger pushed a link on the symlink stack' "$html/labs/$name.html" 2>/dev/null; then
		check "lab $name: its trace lines and its gdb output (no link in its walks: no picture)" \
			has "labs/$name.html" 'namei_lookup_start: level=' 'What gdb printed'
	else
		check "lab $name: its picture and its gdb output" has "labs/$name.html" \
			'<object data="[^"]*graphviz-[0-9a-f]*\.svg"' 'What gdb printed'
		check "lab $name: without JavaScript, its strips and no stepper" without_js "labs/$name.html"
	fi
done

labs=$(ls labs/*/setup.sh | wc -l)
rows=$(sed -n '/class="[^"]*labs-table/,/<\/table>/p' $html/labs/index.html 2>/dev/null |
	grep -c '<a class="reference internal" href="[0-9][0-9]-')
if [[ $rows -eq $labs && $labs -gt 0 ]]; then ok "the labs index: a numbered table, a row for each of the $labs labs"
else not_ok "the labs index: a numbered table, a row for each lab"; echo "# $rows row(s) for $labs labs"; fi
check "the labs index documents the guest's lookup tool and lab-trigger" says labs/index.html \
	'lookup [-n COMM] [-d DIR] [-R FLAGS] [-o FILE [-u]] [-r COUNT] [-t]' 'lab-trigger [NAME]'
check "the bench page shows the last make bench kept in results/bench, with its date and commit" \
	says bench.html 'Every namei event off' 'chain-40' 'the checkout at '

helpers=$($py -c 'from symwalk import gdb_helpers as helpers
print(" ".join(h.name for h in helpers.find_helpers("gdb-scripts")))')
missing=()
for h in $helpers; do
	grep -q "id=\"helper-${h//_/-}\"" $html/helpers.html 2>/dev/null || missing+=("$h")
done
if [[ -z $helpers ]]; then not_ok "the helper reference: no helper found in gdb-scripts"
elif [[ ${#missing[@]} -eq 0 ]]; then ok "the helper reference has each of the $(wc -w <<<"$helpers") helpers"
else not_ok "the helper reference has each helper"; echo "# missing: ${missing[*]}"; fi
check "the helper reference shows real gdb output" has helpers.html \
	'\(gdb\) lx-nameidata' 'nameidata of symwalk-lab' 'heap array'

events=$(grep -ohE '^DEFINE_EVENT(_PRINT)?\(\w+, *\w+|^TRACE_EVENT\(\w+' build/linux/include/trace/events/namei.h |
	sed -E 's/.*[(,] *//')
missing=()
for e in $events; do
	grep -q "id=\"event-${e//_/-}\"" $html/tracepoints.html 2>/dev/null || missing+=("$e")
done
if [[ ${#missing[@]} -eq 0 ]]; then ok "the tracepoint reference has each of the $(wc -w <<<"$events") events of namei.h"
else not_ok "the tracepoint reference has each event of namei.h"; echo "# missing: ${missing[*]}"; fi
no_example=$(grep -c 'No walk of the documentation' $html/tracepoints.html)
if [[ $no_example -eq 0 ]]; then ok "each event has real example output"
else not_ok "each event has real example output"; echo "# $no_example event(s) without an example"; fi

# A page per patch, linked from the series' index (series_test.py checks
# what each page holds).
missing=()
for p in patches/*.patch; do
	stem=$(basename "$p" .patch)
	[[ $stem == 0000-* ]] && continue
	[[ -f $html/series/patch/$stem.html ]] && grep -q "href=\"patch/$stem.html\"" $html/series/index.html ||
		missing+=("$stem")
done
if [[ ${#missing[@]} -eq 0 ]]; then ok "the series: a page per patch, linked from its index"
else not_ok "the series: a page per patch, linked from its index"; echo "# missing: ${missing[*]}"; fi

check "the patched path-lookup page is rendered" has filesystems/path-lookup.html \
	'Pathname lookup' 'pick_link'
check "the kernel-doc of fs/namei.c is rendered" has filesystems/path-lookup.html \
	'id="c\.link_path_walk"'
check "the kernel-doc entry of the navigation leads to the walker's functions" \
	has filesystems/namei-api.html 'href="path-lookup.html#the-walker-s-functions"' \
	'href="path-lookup.html#c\.pick_link"'

svgs=$(ls $html/_images/*.svg 2>/dev/null | wc -l)
moments=$(grep -o '<object data="[^"]*graphviz-[0-9a-f]*\.svg"' $html/stack.html 2>/dev/null | sort -u | wc -l)
if [[ $moments -ge 6 ]]; then ok "the stack pictures: the embedded frames, the spill, a trailing pop, a jump, a magic link, ELOOP ($moments)"
else not_ok "the stack pictures: six moments of the stack"; echo "# stack.html has $moments"; fi
check "the stack page: without JavaScript, its strips and no stepper" without_js stack.html
check "the pictures are SVG that sphinx.ext.graphviz had dot generate ($svgs)" \
	bash -c "grep -l 'Generated by graphviz' $html/_images/graphviz-*.svg | grep -q ."

done_testing
