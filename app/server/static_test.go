package server

import (
	"strings"
	"testing"
)

// TestStaticHandlerPrefix: a static build takes "" or a clean path as its
// prefix, and refuses anything else with the accepted form.
func TestStaticHandlerPrefix(t *testing.T) {
	for _, c := range []struct{ prefix, want string }{
		{"", ""},
		{"/", ""},
		{"/ratelab", "/ratelab"},
		{"/courses/rate-lab_2.0", "/courses/rate-lab_2.0"},
	} {
		h, err := StaticHandler(c.prefix, "v1", "b1", []string{"tokenbucket.go"})
		if err != nil {
			t.Errorf("prefix %q: %v", c.prefix, err)
			continue
		}
		if got := h.Resources.Package() + " " + h.Resources.AppWASM(); got != c.want+" "+c.want+"/web/app.wasm" {
			t.Errorf("prefix %q: package and wasm %q", c.prefix, got)
		}
		if got, want := strings.Join(h.CacheableResources, " "), "/web/icon.svg /web/data/nasa-1995-08-01.csv "+c.want+"/ "+c.want+"/lab "+c.want+"/learn /web/src/tokenbucket.go"; got != want {
			t.Errorf("prefix %q: cacheable %q, want %q", c.prefix, got, want)
		}
	}
	for _, bad := range []string{"ratelab", "/ratelab/", "//x", "/a//b", "/..", "/a/./b", "/.hidden", "/a b", "/a?b", "/é"} {
		_, err := StaticHandler(bad, "v1", "", nil)
		want := `prefix "` + bad + `" is not a path; want "" or /NAME[/NAME...], each NAME of letters, digits, '.', '_', '~', '-' and not starting with '.', without a trailing slash`
		if err == nil || err.Error() != want {
			t.Errorf("prefix %q: error %v, want %s", bad, err, want)
		}
	}
	if _, err := StaticHandler("", "v1", "a b", nil); err == nil || err.Error() != `build "a b"; want up to 64 letters, digits, '.', '_', '-'` {
		t.Errorf("build \"a b\": error %v", err)
	}
}

// TestMetaPolicy: the policy a static page carries in a <meta> is the
// server's but frame-ancestors, which a <meta> cannot set.
func TestMetaPolicy(t *testing.T) {
	want := "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob:; connect-src 'self' blob:; worker-src 'self'; manifest-src 'self'; " +
		"object-src 'none'; base-uri 'none'; form-action 'self'"
	if got := metaPolicy(); got != want {
		t.Errorf("metaPolicy() = %q, want %q", got, want)
	}
	h, err := StaticHandler("/ratelab", "v1", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(h.RawHeaders, ""); got != `<meta http-equiv="Content-Security-Policy" content="`+want+`">` {
		t.Errorf("RawHeaders %q", got)
	}
}
