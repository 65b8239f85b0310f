package httplimit

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"github.com/ratelab/ratelab/limiter"
)

// KeyFunc returns the key a request is limited by: a client address, an API
// key, a route, or a composite of those (see [Compose]). An error is
// reported to [Options.OnError]; one wrapping [ErrNoKey] means the request
// carries no key (a missing header) and is answered 400 by default.
type KeyFunc func(*http.Request) (string, error)

// ErrNoKey is wrapped by the errors of key functions that find no key in a
// request.
var ErrNoKey = errors.New("httplimit: no key in the request")

// IPOptions configures [KeyByIP]. The zero value keys by the immediate
// peer's address (RemoteAddr), IPv6 grouped by /64.
type IPOptions struct {
	// TrustedProxies are the networks of the proxies in front of the
	// server. Only when the immediate peer is in one of them is the
	// forwarding Header read, from the right (the entry the nearest proxy
	// appended) leftwards past every trusted proxy: the first address not in
	// them is the client. Entries left of it are whatever the client sent
	// and are never read, so a client cannot choose its key by sending the
	// header itself (the leftmost-entry mistake: ulule/limiter #213,
	// go-chi/httprate's deprecated KeyByRealIP). Empty: RemoteAddr only.
	TrustedProxies []netip.Prefix
	// Header is the forwarding header the trusted proxies set:
	// "X-Forwarded-For" (the default) or "Forwarded" (RFC 7239, its for=
	// parameters). Name only the one your proxies write: a header they pass
	// through unchanged is the client's to forge.
	Header string
	// IPv6Prefix is the prefix length that groups IPv6 clients, from 1 to
	// 128; 0 means 64, a subscriber's usual allocation (one host can use
	// every address of its /64). IPv4 addresses (and IPv4-mapped IPv6
	// addresses) are keyed whole.
	IPv6Prefix int
}

// KeyByIP returns a key function giving the client's address: an IPv4
// address as dotted decimal ("192.0.2.1"), an IPv6 client as its prefix
// ("2001:db8:1:2::/64"). The address comes from RemoteAddr, or from the
// forwarding header when the peer is a trusted proxy (see
// [IPOptions.TrustedProxies]); an unreadable entry in that header stops the
// walk at the trusted proxy that appended it, whose address is then the
// key. It returns an error wrapping [limiter.ErrInvalid] for a Header other than
// X-Forwarded-For or Forwarded or an IPv6Prefix out of range.
func KeyByIP(opts IPOptions) (KeyFunc, error) {
	switch {
	case opts.IPv6Prefix == 0:
		opts.IPv6Prefix = 64
	case opts.IPv6Prefix < 0 || opts.IPv6Prefix > 128:
		return nil, fmt.Errorf("httplimit: IPv6 prefix /%d is out of range; want 1 to 128: %w", opts.IPv6Prefix, limiter.ErrInvalid)
	}
	forwarded := false
	switch http.CanonicalHeaderKey(opts.Header) {
	case "", "X-Forwarded-For":
		opts.Header = "X-Forwarded-For"
	case "Forwarded":
		opts.Header, forwarded = "Forwarded", true
	default:
		return nil, fmt.Errorf("httplimit: forwarding header %q is unknown; want X-Forwarded-For or Forwarded: %w", opts.Header, limiter.ErrInvalid)
	}
	trusted := append([]netip.Prefix(nil), opts.TrustedProxies...)
	for i, p := range trusted {
		trusted[i] = p.Masked()
	}
	ip := &ipKey{trusted: trusted, header: opts.Header, forwarded: forwarded, v6bits: opts.IPv6Prefix}
	return ip.key, nil
}

type ipKey struct {
	trusted   []netip.Prefix
	header    string
	forwarded bool
	v6bits    int
}

func (k *ipKey) key(r *http.Request) (string, error) {
	host := r.RemoteAddr
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return "", fmt.Errorf("httplimit: RemoteAddr %q holds no IP address: %w", r.RemoteAddr, ErrNoKey)
	}
	if len(k.trusted) > 0 && k.isTrusted(peer) {
		if a, text, ok := k.walk(r.Header[k.header], peer); ok {
			peer, host = a, text
		}
	}
	return k.format(peer, host), nil
}

// walk reads the forwarding header's entries from the right past trusted
// proxies and returns the client's address and its text. ok is false when
// every entry was a trusted proxy's own or the header is missing: the
// caller then keeps the peer.
func (k *ipKey) walk(values []string, peer netip.Addr) (netip.Addr, string, bool) {
	last, lastText, found := peer, "", false
	for i := len(values) - 1; i >= 0; i-- {
		v := values[i]
		for v != "" {
			entry := v
			if j := strings.LastIndexByte(v, ','); j >= 0 {
				entry, v = v[j+1:], v[:j]
			} else {
				v = ""
			}
			text := strings.TrimSpace(entry)
			if k.forwarded {
				text = forwardedFor(text)
			}
			a, err := parseHost(text)
			if err != nil {
				// An unreadable entry: the client is whoever the trusted
				// proxy nearest to it received the request from, unknown;
				// key by that proxy rather than by anything further left.
				return last, lastText, found
			}
			last, lastText, found = a, text, true
			if !k.isTrusted(a) {
				return a, text, true
			}
		}
	}
	return last, lastText, found
}

func (k *ipKey) isTrusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range k.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// format returns the key for a: text itself when it is already a's
// canonical IPv4 form (no allocation), the IPv6 prefix otherwise.
func (k *ipKey) format(a netip.Addr, text string) string {
	a = a.WithZone("")
	if a.Is4() {
		// netip parses only canonical dotted decimal (no leading zeros),
		// so text without a port is already the key.
		if strings.IndexByte(text, ':') < 0 {
			return text
		}
		return a.String()
	}
	if a.Is4In6() {
		return a.Unmap().String()
	}
	p, _ := a.Prefix(k.v6bits)
	return p.String()
}

// parseHost parses an address with an optional port, an IPv6 address
// optionally in brackets ("[2001:db8::1]:4711").
func parseHost(s string) (netip.Addr, error) {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr(), nil
	}
	return netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
}

// forwardedFor returns the for= value of one element of an RFC 7239
// Forwarded header ("for=192.0.2.60;proto=http", `for="[2001:db8::17]:4711"`),
// unquoted, or "" when it has none.
func forwardedFor(elem string) string {
	for elem != "" {
		pair := elem
		if j := strings.IndexByte(elem, ';'); j >= 0 {
			pair, elem = elem[:j], elem[j+1:]
		} else {
			elem = ""
		}
		name, value, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if ok && strings.EqualFold(name, "for") {
			return strings.Trim(value, `"`)
		}
	}
	return ""
}

// KeyByHeader returns a key function giving the value of the header name
// (an API key, a tenant id). A request without it gets an error wrapping
// [ErrNoKey].
func KeyByHeader(name string) KeyFunc {
	name = http.CanonicalHeaderKey(name)
	return func(r *http.Request) (string, error) {
		if v := r.Header[name]; len(v) > 0 && v[0] != "" {
			return v[0], nil
		}
		return "", fmt.Errorf("httplimit: header %s is missing: %w", name, ErrNoKey)
	}
}

// KeyByRoute returns a key function giving the method and route: the
// pattern that http.ServeMux matched ("GET /items/{id}"), so that every item
// shares one key, or, before any match (middleware around the whole mux),
// the method and the URL path ("GET /items/7"). Paths are the client's to
// choose: compose with a client key (see [Compose]) rather than key by path
// alone.
func KeyByRoute() KeyFunc {
	return func(r *http.Request) (string, error) {
		if r.Pattern != "" {
			return r.Pattern, nil
		}
		return r.Method + " " + r.URL.Path, nil
	}
}

// Compose returns a key function joining the keys of fs, in order, so that
// one key is the client and the endpoint (Compose(ip, KeyByRoute())). Each
// part is written as its length, a colon and the part ("9:192.0.2.1"
// "15:GET /items/{id}"), so no two lists of parts give the same key. The
// first error of fs is returned.
func Compose(fs ...KeyFunc) KeyFunc {
	return func(r *http.Request) (string, error) {
		var b strings.Builder
		for _, f := range fs {
			part, err := f(r)
			if err != nil {
				return "", err
			}
			b.WriteString(strconv.Itoa(len(part)))
			b.WriteByte(':')
			b.WriteString(part)
		}
		return b.String(), nil
	}
}
