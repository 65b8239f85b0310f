package httplimit_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/ratelab/ratelab/limiter"
	"github.com/ratelab/ratelab/limiter/httplimit"
)

func TestKeyByIP(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8:ffff::/48")}
	xff := httplimit.IPOptions{TrustedProxies: proxies}
	fwd := httplimit.IPOptions{TrustedProxies: proxies, Header: "Forwarded"}
	for _, tc := range []struct {
		name    string
		opts    httplimit.IPOptions
		remote  string
		headers map[string][]string
		want    string
	}{
		{"IPv4 peer", httplimit.IPOptions{}, "192.0.2.1:1234", nil, "192.0.2.1"},
		{"IPv6 peer by /64", httplimit.IPOptions{}, "[2001:db8:1:2:3:4:5:6]:1234", nil, "2001:db8:1:2::/64"},
		{"IPv6 by /48", httplimit.IPOptions{IPv6Prefix: 48}, "[2001:db8:1:2::6]:1", nil, "2001:db8:1::/48"},
		{"IPv4-mapped peer", httplimit.IPOptions{}, "[::ffff:192.0.2.1]:1", nil, "192.0.2.1"},
		{"zone dropped", httplimit.IPOptions{}, "[fe80::1%eth0]:1", nil, "fe80::/64"},
		{"no port", httplimit.IPOptions{}, "192.0.2.1", nil, "192.0.2.1"},
		{"untrusted peer: header ignored", xff, "192.0.2.1:1", map[string][]string{"X-Forwarded-For": {"198.51.100.7"}}, "192.0.2.1"},
		{"no trusted list: header ignored", httplimit.IPOptions{}, "10.0.0.1:1", map[string][]string{"X-Forwarded-For": {"198.51.100.7"}}, "10.0.0.1"},
		{"one trusted proxy", xff, "10.0.0.1:1", map[string][]string{"X-Forwarded-For": {"198.51.100.7"}}, "198.51.100.7"},
		{"spoofed leftmost ignored", xff, "10.0.0.1:1", map[string][]string{"X-Forwarded-For": {"203.0.113.66, 198.51.100.7"}}, "198.51.100.7"},
		{"past two trusted proxies", xff, "10.0.0.1:1", map[string][]string{"X-Forwarded-For": {"203.0.113.66, 198.51.100.7, 10.1.2.3"}}, "198.51.100.7"},
		{"several header lines", xff, "10.0.0.1:1", map[string][]string{"X-Forwarded-For": {"203.0.113.66, 198.51.100.7", "10.1.2.3"}}, "198.51.100.7"},
		{"garbage left of the client", xff, "10.0.0.1:1", map[string][]string{"X-Forwarded-For": {"not-an-ip, 198.51.100.7"}}, "198.51.100.7"},
		{"unreadable entry: the proxy that appended it", xff, "10.0.0.1:1", map[string][]string{"X-Forwarded-For": {"198.51.100.7, unknown, 10.9.9.9"}}, "10.9.9.9"},
		{"unreadable last entry: the peer", xff, "10.0.0.1:1", map[string][]string{"X-Forwarded-For": {"198.51.100.7, unknown"}}, "10.0.0.1"},
		{"all trusted: the leftmost", xff, "10.0.0.1:1", map[string][]string{"X-Forwarded-For": {"10.3.3.3, 10.2.2.2"}}, "10.3.3.3"},
		{"header missing: the peer", xff, "10.0.0.1:1", nil, "10.0.0.1"},
		{"entry with port", xff, "10.0.0.1:1", map[string][]string{"X-Forwarded-For": {"198.51.100.7:5555"}}, "198.51.100.7"},
		{"IPv6 client behind IPv6 proxy", xff, "[2001:db8:ffff::1]:1", map[string][]string{"X-Forwarded-For": {"2001:db8:5:6:7::1"}}, "2001:db8:5:6::/64"},
		{"X-Forwarded-For ignored when Forwarded is chosen", fwd, "10.0.0.1:1", map[string][]string{"X-Forwarded-For": {"198.51.100.7"}}, "10.0.0.1"},
		{"Forwarded", fwd, "10.0.0.1:1", map[string][]string{"Forwarded": {`for=203.0.113.66, for="[2001:db8:cafe::17]:4711";proto=https, for=10.1.1.1;by=10.0.0.1`}}, "2001:db8:cafe::/64"},
		{"Forwarded spoofed leftmost", fwd, "10.0.0.1:1", map[string][]string{"Forwarded": {"for=10.5.5.5, proto=http;For=198.51.100.7"}}, "198.51.100.7"},
		{"Forwarded obfuscated", fwd, "10.0.0.1:1", map[string][]string{"Forwarded": {"for=_hidden"}}, "10.0.0.1"},
	} {
		key, err := httplimit.KeyByIP(tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.remote
		for k, v := range tc.headers {
			r.Header[k] = v
		}
		if got, err := key(r); err != nil || got != tc.want {
			t.Errorf("%s: key %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestKeyErrors(t *testing.T) {
	for _, tc := range []struct {
		opts httplimit.IPOptions
		want string
	}{
		{httplimit.IPOptions{IPv6Prefix: 129}, "httplimit: IPv6 prefix /129 is out of range; want 1 to 128: invalid parameter"},
		{httplimit.IPOptions{Header: "X-Real-IP"}, `httplimit: forwarding header "X-Real-IP" is unknown; want X-Forwarded-For or Forwarded: invalid parameter`},
	} {
		if _, err := httplimit.KeyByIP(tc.opts); err == nil || err.Error() != tc.want || !errors.Is(err, limiter.ErrInvalid) {
			t.Errorf("KeyByIP(%+v): %v, want %q", tc.opts, err, tc.want)
		}
	}
	key, _ := httplimit.KeyByIP(httplimit.IPOptions{})
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "@"
	if _, err := key(r); err == nil || err.Error() != `httplimit: RemoteAddr "@" holds no IP address: httplimit: no key in the request` || !errors.Is(err, httplimit.ErrNoKey) {
		t.Errorf("RemoteAddr @: %v", err)
	}
}

func TestOtherKeys(t *testing.T) {
	ip, _ := httplimit.KeyByIP(httplimit.IPOptions{})
	composite := httplimit.Compose(ip, httplimit.KeyByRoute(), httplimit.KeyByHeader("X-Api-Key"))
	mux := http.NewServeMux()
	var got []string
	mux.HandleFunc("GET /items/{id}", func(w http.ResponseWriter, r *http.Request) {
		k, err := composite(r)
		got = append(got, k, errString(err))
	})
	r := httptest.NewRequest("GET", "/items/7", nil)
	r.RemoteAddr = "192.0.2.1:1"
	r.Header.Set("X-Api-Key", "k|1")
	outside := r.Clone(r.Context())
	mux.ServeHTTP(httptest.NewRecorder(), r)
	k, err := composite(outside) // no mux matched it: no pattern, the path
	got = append(got, k, errString(err))
	want := []string{"9:192.0.2.115:GET /items/{id}3:k|1", "", "9:192.0.2.112:GET /items/73:k|1", ""}
	if len(got) != 4 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("composite keys %q, want %q", got, want)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
