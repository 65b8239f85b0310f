package lab

import (
	"testing"

	"github.com/ratelab/ratelab/app/sim"
)

// The picker finds a client of a trace loaded after another of as many
// clients (its list of names was kept by the count of clients alone), and
// says when no client has the name typed.
func TestClientPickerNewTrace(t *testing.T) {
	m := newLabModel()
	p := &clientPicker{M: m}
	load := func(name string) {
		tr := &sim.Trace{Events: []sim.Event{{Client: name, N: 1}}, Clients: []string{name}}
		if err := m.lab.SetTrace("", tr); err != nil {
			t.Fatal(err)
		}
		if err := m.lab.RunTrace(); err != nil {
			t.Fatal(err)
		}
		m.changed()
	}
	load("first")
	p.query = "fir"
	if names, total, n := p.matches(m.lab); len(names) != 1 || total != 1 || n != 2 {
		t.Fatalf("matches %v, %d of %d; want [first], 1 of 2 (alice, first)", names, total, n)
	}
	load("second")
	p.choose("second")
	if m.lab.Focus() != "second" || p.err != "" {
		t.Errorf("focus %q, message %q; want second, none", m.lab.Focus(), p.err)
	}
	p.choose("first")
	if want := "no client is named “first”, and none contains it"; p.err != want || m.lab.Focus() != "second" {
		t.Errorf("focus %q, message %q; want second, %q", m.lab.Focus(), p.err, want)
	}
}
