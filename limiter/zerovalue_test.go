package limiter_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/ratelab/ratelab/limiter"
)

// zeroCase is a strategy's zero value and the calls of its own methods
// beyond Strategy's, each returning what it got and what it should get.
type zeroCase struct {
	s     limiter.Strategy
	kind  limiter.Kind
	typ   string
	calls map[string]func() (got, want any)
}

// The checks a setter of a zero value must pass: the zero error, nothing else.
func zeroErr(err error) any { return fmt.Sprint(err, " ", errors.Is(err, limiter.ErrInvalid)) }

func zeroWant(typ string) any {
	return fmt.Sprintf("limiter: zero %s; create it with New%s true", typ, typ)
}

func zeroCases() []zeroCase {
	tb, g, lb := &limiter.TokenBucket{}, &limiter.GCRA{}, &limiter.LeakyBucket{}
	fw, sl, sc := &limiter.FixedWindow{}, &limiter.SlidingWindowLog{}, &limiter.SlidingWindowCounter{}
	w := zeroWant
	return []zeroCase{
		{tb, limiter.KindTokenBucket, "TokenBucket", map[string]func() (any, any){
			"Rate":     func() (any, any) { return tb.Rate(), 0.0 },
			"Burst":    func() (any, any) { return tb.Burst(), 0 },
			"SetRate":  func() (any, any) { return zeroErr(tb.SetRate(0, 1)), w("TokenBucket") },
			"SetBurst": func() (any, any) { return zeroErr(tb.SetBurst(0, 1)), w("TokenBucket") },
			"Admit":    func() (any, any) { return tb.Admit(0, 1), false },
			"Reserve": func() (any, any) {
				r, err := tb.Reserve(0, 1)
				return fmt.Sprint(r, " ", zeroErr(err)), fmt.Sprint((*limiter.Reservation)(nil), " ", w("TokenBucket"))
			},
			"Config": func() (any, any) { return tb.Config(), limiter.Config{Kind: limiter.KindTokenBucket} },
			"NewWaiter": func() (any, any) {
				wt, err := limiter.NewWaiter(tb, limiter.WaiterOptions{})
				return fmt.Sprint(wt, " ", zeroErr(err)), fmt.Sprint((*limiter.Waiter)(nil), " ", w("TokenBucket"))
			},
		}},
		{g, limiter.KindGCRA, "GCRA", map[string]func() (any, any){
			"Rate":     func() (any, any) { return g.Rate(), 0.0 },
			"Burst":    func() (any, any) { return g.Burst(), 0 },
			"SetRate":  func() (any, any) { return zeroErr(g.SetRate(0, 1)), w("GCRA") },
			"SetBurst": func() (any, any) { return zeroErr(g.SetBurst(0, 1)), w("GCRA") },
			"Admit":    func() (any, any) { return g.Admit(0, 1), false },
			"Reserve": func() (any, any) {
				r, err := g.Reserve(0, 1)
				return fmt.Sprint(r, " ", zeroErr(err)), fmt.Sprint((*limiter.Reservation)(nil), " ", w("GCRA"))
			},
			"Config": func() (any, any) { return g.Config(), limiter.Config{Kind: limiter.KindGCRA} },
			"NewWaiter": func() (any, any) {
				wt, err := limiter.NewWaiter(g, limiter.WaiterOptions{})
				return fmt.Sprint(wt, " ", zeroErr(err)), fmt.Sprint((*limiter.Waiter)(nil), " ", w("GCRA"))
			},
		}},
		{lb, limiter.KindLeakyBucket, "LeakyBucket", map[string]func() (any, any){
			"SetCapacity":     func() (any, any) { return zeroErr(lb.SetCapacity(0, 1)), w("LeakyBucket") },
			"SetLeakInterval": func() (any, any) { return zeroErr(lb.SetLeakInterval(0, time.Second)), w("LeakyBucket") },
			"Admit":           func() (any, any) { return lb.Admit(0, 1), false },
			"Reserve": func() (any, any) {
				r, err := lb.Reserve(0, 1)
				return fmt.Sprint(r, " ", zeroErr(err)), fmt.Sprint((*limiter.Reservation)(nil), " ", w("LeakyBucket"))
			},
			"Config": func() (any, any) { return lb.Config(), limiter.Config{Kind: limiter.KindLeakyBucket} },
			"NewWaiter": func() (any, any) {
				wt, err := limiter.NewWaiter(lb, limiter.WaiterOptions{})
				return fmt.Sprint(wt, " ", zeroErr(err)), fmt.Sprint((*limiter.Waiter)(nil), " ", w("LeakyBucket"))
			},
		}},
		{fw, limiter.KindFixedWindow, "FixedWindow", map[string]func() (any, any){
			"SetLimit":  func() (any, any) { return zeroErr(fw.SetLimit(0, 1)), w("FixedWindow") },
			"SetWindow": func() (any, any) { return zeroErr(fw.SetWindow(0, time.Second)), w("FixedWindow") },
			"Admit":     func() (any, any) { return fw.Admit(0, 1), false },
			"Config":    func() (any, any) { return fw.Config(), limiter.Config{Kind: limiter.KindFixedWindow} },
		}},
		{sl, limiter.KindSlidingWindowLog, "SlidingWindowLog", map[string]func() (any, any){
			"SetLimit":  func() (any, any) { return zeroErr(sl.SetLimit(0, 1)), w("SlidingWindowLog") },
			"SetWindow": func() (any, any) { return zeroErr(sl.SetWindow(0, time.Second)), w("SlidingWindowLog") },
			"Admit":     func() (any, any) { return sl.Admit(0, 1), false },
			"Config":    func() (any, any) { return sl.Config(), limiter.Config{Kind: limiter.KindSlidingWindowLog} },
		}},
		{sc, limiter.KindSlidingWindowCounter, "SlidingWindowCounter", map[string]func() (any, any){
			"SetLimit":  func() (any, any) { return zeroErr(sc.SetLimit(0, 1)), w("SlidingWindowCounter") },
			"SetWindow": func() (any, any) { return zeroErr(sc.SetWindow(0, time.Second)), w("SlidingWindowCounter") },
			"Admit":     func() (any, any) { return sc.Admit(0, 1), false },
			"Config":    func() (any, any) { return sc.Config(), limiter.Config{Kind: limiter.KindSlidingWindowCounter} },
		}},
	}
}

// guard runs f on another goroutine and returns what it recovered (nil when
// f did not panic) and whether f returned within a few seconds: a guard
// against a lock left held, which would block the test forever (not a
// measure of time).
func guard(f func()) (recovered any, returned bool) {
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	select {
	case r := <-done:
		return r, true
	case <-time.After(5 * time.Second):
		return nil, false
	}
}

// The zero value of every strategy answers every method with the zero error
// or as a limiter holding nothing, never panics, and leaves no lock held:
// the same call again returns.
func TestZeroValueStrategies(t *testing.T) {
	for _, c := range zeroCases() {
		calls := map[string]func() (any, any){
			"AllowN": func() (any, any) {
				d, err := c.s.AllowN(time.Second, 1)
				return fmt.Sprint(d, " ", zeroErr(err)), fmt.Sprint(limiter.Decision{}, " ", zeroWant(c.typ))
			},
			"AllowN(-1)": func() (any, any) { _, err := c.s.AllowN(0, -1); return zeroErr(err), zeroWant(c.typ) },
			"State":      func() (any, any) { return c.s.State(time.Second), limiter.State{Kind: c.kind} },
			"Fresh":      func() (any, any) { return c.s.Fresh(time.Second), true },
			"Kind":       func() (any, any) { return c.s.Kind(), c.kind },
		}
		for name, f := range c.calls {
			calls[name] = f
		}
		t.Run(c.typ, func(t *testing.T) { checkZeroCalls(t, c.typ, calls) })
	}
}

func checkZeroCalls(t *testing.T, typ string, calls map[string]func() (any, any)) {
	for name, f := range calls {
		for i := range 2 { // the second call must not find a lock left held
			var got, want any
			r, returned := guard(func() { got, want = f() })
			switch {
			case !returned:
				t.Fatalf("zero %s: %s call %d does not return: a lock was left held", typ, name, i+1)
			case r != nil:
				t.Errorf("zero %s: %s call %d panicked: %v", typ, name, i+1, r)
			case !reflect.DeepEqual(got, want):
				t.Errorf("zero %s: %s call %d = %v; want %v", typ, name, i+1, got, want)
			}
		}
	}
}

// A factory that returns a strategy's zero value gets the zero error from
// the Keyed, every time: the key is held, and its strategy's lock is free.
func TestKeyedZeroValueFromFactory(t *testing.T) {
	for _, c := range zeroCases() {
		fresh := map[limiter.Kind]func() limiter.Strategy{
			limiter.KindTokenBucket:          func() limiter.Strategy { return &limiter.TokenBucket{} },
			limiter.KindGCRA:                 func() limiter.Strategy { return &limiter.GCRA{} },
			limiter.KindLeakyBucket:          func() limiter.Strategy { return &limiter.LeakyBucket{} },
			limiter.KindFixedWindow:          func() limiter.Strategy { return &limiter.FixedWindow{} },
			limiter.KindSlidingWindowLog:     func() limiter.Strategy { return &limiter.SlidingWindowLog{} },
			limiter.KindSlidingWindowCounter: func() limiter.Strategy { return &limiter.SlidingWindowCounter{} },
		}[c.kind]
		k := newKeyed(t, func(string) (limiter.Strategy, error) { return fresh(), nil }, limiter.KeyedOptions{SweepEvery: -1})
		for i := range 2 {
			var err error
			r, returned := guard(func() { _, err = k.AllowNAt(0, "a", 1) })
			if !returned {
				t.Errorf("zero %s in a Keyed: request %d does not return: a lock was left held", c.typ, i+1)
				break
			}
			if r != nil {
				t.Errorf("zero %s in a Keyed: request %d panicked: %v", c.typ, i+1, r)
			}
			if got, want := zeroErr(err), zeroWant(c.typ); got != want {
				t.Errorf("zero %s in a Keyed: request %d error %v; want %v", c.typ, i+1, got, want)
			}
		}
		if n := k.Len(); n != 1 {
			t.Errorf("zero %s in a Keyed: Len %d; want 1", c.typ, n)
		}
		if n := k.Sweep(time.Hour); n != 1 {
			t.Errorf("zero %s in a Keyed: Sweep evicted %d; want 1 (it holds nothing: fresh)", c.typ, n)
		}
	}
}

// panicOnce is a strategy from outside the package whose first AllowN panics.
type panicOnce struct {
	limiter.Strategy
	panicked *bool
}

func (p panicOnce) AllowN(now limiter.Instant, n int) (limiter.Decision, error) {
	if !*p.panicked {
		*p.panicked = true
		panic("boom")
	}
	return p.Strategy.AllowN(now, n)
}

// A foreign strategy that panics in AllowN leaves its key's lock free: the
// panic reaches the caller, and the key's next request decides.
func TestKeyedForeignPanicReleasesKeyLock(t *testing.T) {
	panicked := false
	k := newKeyed(t, func(string) (limiter.Strategy, error) {
		tb, err := limiter.NewTokenBucket(1, 2)
		return panicOnce{tb, &panicked}, err
	}, limiter.KeyedOptions{})
	if r, _ := guard(func() { k.AllowNAt(0, "a", 1) }); r != "boom" {
		t.Fatalf("first request recovered %v; want the strategy's panic", r)
	}
	var d limiter.Decision
	var err error
	if r, returned := guard(func() { d, err = k.AllowNAt(0, "a", 1) }); !returned || r != nil {
		t.Fatalf("the key's second request: returned %v, recovered %v; want a decision (a lock left held by the panic blocks it)", returned, r)
	}
	wantDecision(t, "after the panic", d, limiter.Decision{Allowed: true, Limit: 2, Remaining: 1, ResetAfter: time.Second})
	if err != nil {
		t.Errorf("after the panic: error %v", err)
	}
}
