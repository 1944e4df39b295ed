package htmlreport

import (
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
)

// node is an element of a parsed page.
type node struct {
	name  string // local name
	attr  map[string]string
	kids  []*node
	text  strings.Builder // character data directly inside the element
	depth int
}

// parseStrict parses doc as well-formed XML (the page is written in XHTML
// syntax: void elements self-closed, tags balanced) with HTML's named
// entities, and returns its root element. Mismatched tags, stray '<' or
// '&' and unquoted attributes are errors.
func parseStrict(doc string) (*node, error) {
	d := xml.NewDecoder(strings.NewReader(doc))
	d.Strict = true
	d.Entity = xml.HTMLEntity
	var root *node
	var stack []*node
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{name: t.Name.Local, attr: map[string]string{}, depth: len(stack)}
			for _, a := range t.Attr {
				key := a.Name.Local
				if a.Name.Space != "" {
					key = a.Name.Space + ":" + key
				}
				n.attr[key] = a.Value
			}
			if len(stack) == 0 {
				if root != nil {
					return nil, fmt.Errorf("second root element <%s>", n.name)
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.kids = append(p.kids, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(t)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("no root element")
	}
	return root, nil
}

// find returns every element under n (n included) with the given local name.
func (n *node) find(name string) []*node {
	var out []*node
	var walk func(*node)
	walk = func(m *node) {
		if m.name == name {
			out = append(out, m)
		}
		for _, k := range m.kids {
			walk(k)
		}
	}
	walk(n)
	return out
}

// byID returns the element with the given id, or nil.
func (n *node) byID(id string) *node {
	if n.attr["id"] == id {
		return n
	}
	for _, k := range n.kids {
		if m := k.byID(id); m != nil {
			return m
		}
	}
	return nil
}

// allText returns the character data of n and every descendant.
func (n *node) allText() string {
	var b strings.Builder
	var walk func(*node)
	walk = func(m *node) {
		b.WriteString(m.text.String())
		for _, k := range m.kids {
			walk(k)
		}
	}
	walk(n)
	return b.String()
}

// pathsWithData counts the <path> elements under n with a non-empty d.
func pathsWithData(n *node) int {
	c := 0
	for _, p := range n.find("path") {
		if strings.TrimSpace(p.attr["d"]) != "" {
			c++
		}
	}
	return c
}

var (
	// refAttr matches an attribute that makes a browser fetch something.
	refAttr = regexp.MustCompile(`(?i)\b(src|href|xlink:href|srcset|action|poster|data|background)\s*=\s*["']?([^"'\s>]*)`)
	// cssURL matches url(…) in CSS.
	cssURL = regexp.MustCompile(`(?i)url\(\s*["']?([^"')]*)`)
	// anyURL matches an absolute or scheme-relative URL anywhere.
	anyURL = regexp.MustCompile(`(?i)(https?:|ftp:)?//[a-z0-9.-]+\.[a-z]{2,}[^\s"'<>)]*`)
	// namespaceBefore matches the text before a URL that is an XML
	// namespace name (never fetched).
	namespaceBefore = regexp.MustCompile(`xmlns(:[a-z]+)?="$`)
	// fetchingElement matches elements that load or run something.
	fetchingElement = regexp.MustCompile(`(?i)<(script|link|img|iframe|object|embed|video|audio|source|image|use|foreignObject)\b`)
)

// externalRefs returns every reference in doc that a browser could fetch
// from outside the page: src/href-like attributes other than in-page
// fragments, CSS url(…) and @import, elements that load resources or run
// script, and any absolute URL other than an XML namespace name.
func externalRefs(doc string) []string {
	var bad []string
	for _, m := range refAttr.FindAllStringSubmatch(doc, -1) {
		if !strings.HasPrefix(m[2], "#") {
			bad = append(bad, m[0])
		}
	}
	for _, m := range cssURL.FindAllStringSubmatch(doc, -1) {
		if !strings.HasPrefix(m[1], "#") {
			bad = append(bad, m[0])
		}
	}
	if i := strings.Index(strings.ToLower(doc), "@import"); i >= 0 {
		bad = append(bad, doc[i:min(len(doc), i+40)])
	}
	for _, m := range fetchingElement.FindAllString(doc, -1) {
		bad = append(bad, m)
	}
	for _, loc := range anyURL.FindAllStringIndex(doc, -1) {
		if !namespaceBefore.MatchString(doc[max(0, loc[0]-20):loc[0]]) {
			bad = append(bad, doc[loc[0]:loc[1]])
		}
	}
	return bad
}

// TestExternalRefs shows that the checker used on the reports catches what
// it must and lets namespaces and fragments pass.
func TestExternalRefs(t *testing.T) {
	tests := []struct {
		doc  string
		want int
	}{
		{`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><path d="M0 0"/></svg>`, 0},
		{`<a href="#plan">plan</a><span style="background: #1f77b4"></span>`, 0},
		{`<img src="http://example.com/a.png"/>`, 3},
		{`<link rel="stylesheet" href="https://cdn.example.org/x.css"/>`, 3},
		{`<span style="background:url(https://example.com/bg.png)">`, 2},
		{`<style>@import "//fonts.example.com/x.css";</style>`, 2},
		{`<style>@font-face{src:url(data:font/ttf;base64,AAAA)}</style>`, 1},
		{`<script>alert(1)</script>`, 1},
		{`<image xlink:href="data:image/png;base64,AAAA"/>`, 2},
		{`<p>see https://example.com/docs</p>`, 1},
	}
	for _, tt := range tests {
		got := externalRefs(tt.doc)
		if len(got) != tt.want {
			t.Errorf("externalRefs(%q) = %q (%d), want %d", tt.doc, got, len(got), tt.want)
		}
	}
}

// TestParseStrict shows that the parser used on the reports rejects
// malformed markup.
func TestParseStrict(t *testing.T) {
	for _, doc := range []string{
		`<html><body><p>open</body></html>`,
		`<html><body><p>a < b</p></body></html>`,
		`<html><meta charset="utf-8"><body></body></html>`,
		`<html><body><svg><path d="M0 0"></svg></body></html>`,
	} {
		if _, err := parseStrict(doc); err == nil {
			t.Errorf("parseStrict(%q) = nil error, want an error", doc)
		}
	}
	root, err := parseStrict(`<!DOCTYPE html><html><body><p>x &amp; y &nbsp;&#8211;</p><svg><path d="M0 0L1 1"/><path d=""/></svg></body></html>`)
	if err != nil {
		t.Fatalf("parseStrict(valid) = %v", err)
	}
	if got, want := pathsWithData(root), 1; got != want {
		t.Errorf("pathsWithData = %d, want %d", got, want)
	}
}
