package explain

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ratelab/ratelab/limiter"
)

// limiterDecls parses limiter/'s non-test files and returns, per file, its
// declarations, and the file set to print them with.
func limiterDecls(t *testing.T) (map[string]*ast.File, *token.FileSet) {
	t.Helper()
	names, err := ShippedFiles("../../limiter")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	for _, n := range names {
		f, err := parser.ParseFile(fset, filepath.Join("../../limiter", n), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files[n] = f
	}
	return files, fset
}

func printNode(t *testing.T, fset *token.FileSet, n any) string {
	t.Helper()
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, n); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// signature prints a function type as the diagram writes a method: "Name(params) results".
func signature(t *testing.T, fset *token.FileSet, name string, ft *ast.FuncType) string {
	return name + strings.TrimPrefix(printNode(t, fset, ft), "func")
}

// typeSpec finds the type named name in f.
func typeSpec(f *ast.File, name string) *ast.TypeSpec {
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok {
			for _, s := range g.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == name {
					return ts
				}
			}
		}
	}
	return nil
}

// funcSigs lists every function and method of package limiter as
// "Recv.Name(params) results" ("Keyed.Len() int", "New(c Config) (Strategy, error)").
func funcSigs(t *testing.T, files map[string]*ast.File, fset *token.FileSet) map[string]bool {
	sigs := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			prefix := ""
			if fd.Recv != nil {
				rt := fd.Recv.List[0].Type
				if st, ok := rt.(*ast.StarExpr); ok {
					rt = st.X
				}
				prefix = rt.(*ast.Ident).Name + "."
			}
			sigs[prefix+signature(t, fset, fd.Name.Name, fd.Type)] = true
		}
	}
	return sigs
}

// TestDesignTypesAreLimiters checks every box of the class diagram against
// limiter/'s source: the type is declared in the named file with the named
// kind; an interface's methods and a struct's exported fields are exactly
// those listed, in order; every listed method and function exists with
// exactly that signature.
func TestDesignTypesAreLimiters(t *testing.T) {
	files, fset := limiterDecls(t)
	sigs := funcSigs(t, files, fset)
	for _, d := range DesignTypes() {
		f := files[d.File]
		if f == nil {
			t.Errorf("%s: file %s is not a shipped limiter file", d.Name, d.File)
			continue
		}
		ts := typeSpec(f, d.Name)
		if ts == nil {
			t.Errorf("%s: not declared in %s", d.Name, d.File)
			continue
		}
		switch tt := ts.Type.(type) {
		case *ast.InterfaceType:
			checkKind(t, d, "interface")
			var got []string
			for _, m := range tt.Methods.List {
				got = append(got, signature(t, fset, m.Names[0].Name, m.Type.(*ast.FuncType)))
			}
			if !slices.Equal(got, d.Methods) {
				t.Errorf("%s: methods %q; limiter declares %q", d.Name, d.Methods, got)
			}
		case *ast.StructType:
			checkKind(t, d, "struct")
			var got []string
			for _, fl := range tt.Fields.List {
				for _, n := range fl.Names {
					if n.IsExported() {
						got = append(got, n.Name+" "+printNode(t, fset, fl.Type))
					}
				}
			}
			if !slices.Equal(got, d.Fields) {
				t.Errorf("%s: fields %q; limiter declares %q", d.Name, d.Fields, got)
			}
			for _, m := range d.Methods {
				if !sigs[d.Name+"."+m] {
					t.Errorf("%s: no method %s in limiter", d.Name, m)
				}
			}
		case *ast.FuncType:
			checkKind(t, d, "func type")
			if got := printNode(t, fset, tt); len(d.Funcs) != 1 || d.Funcs[0] != got {
				t.Errorf("%s: %q; limiter declares %q", d.Name, d.Funcs, got)
			}
			continue
		default:
			t.Errorf("%s: unexpected type %T", d.Name, tt)
		}
		for _, fn := range d.Funcs {
			if !sigs[fn] {
				t.Errorf("%s: no function %s in limiter", d.Name, fn)
			}
		}
	}
}

func checkKind(t *testing.T, d DesignType, want string) {
	t.Helper()
	if d.Kind != want {
		t.Errorf("%s: kind %q; limiter declares a %s", d.Name, d.Kind, want)
	}
}

// TestDesignStrategiesImplement checks, by reflection, that the diagram's
// strategies are exactly the six types of limiter.Kinds, in order, and
// that each implements limiter.Strategy as the diagram draws it.
func TestDesignStrategiesImplement(t *testing.T) {
	types := []reflect.Type{
		reflect.TypeFor[*limiter.TokenBucket](), reflect.TypeFor[*limiter.GCRA](), reflect.TypeFor[*limiter.LeakyBucket](),
		reflect.TypeFor[*limiter.FixedWindow](), reflect.TypeFor[*limiter.SlidingWindowLog](), reflect.TypeFor[*limiter.SlidingWindowCounter](),
	}
	strategy := reflect.TypeFor[limiter.Strategy]()
	var impl []DesignType
	for _, d := range DesignTypes() {
		if d.Implements != "" {
			impl = append(impl, d)
		}
	}
	if len(impl) != len(limiter.Kinds) {
		t.Fatalf("%d strategies in the diagram; want %d", len(impl), len(limiter.Kinds))
	}
	for i, d := range impl {
		typ := types[i]
		if d.Name != typ.Elem().Name() || d.Implements != "Strategy" || !typ.Implements(strategy) {
			t.Errorf("box %d: %s implements %s; want %s implementing Strategy", i, d.Name, d.Implements, typ.Elem().Name())
		}
		s, err := limiter.New(Budget(limiter.Kinds[i], 5, SwitchWindow))
		if err != nil || reflect.TypeOf(s) != typ {
			t.Errorf("box %d: limiter.New(%s) is %T, %v; want %s", i, limiter.Kinds[i], s, err, typ)
		}
	}
	// Keyed holds its strategies behind the interface: its methods take a key.
	if m, ok := reflect.TypeFor[*limiter.Keyed]().MethodByName("AllowNAt"); !ok || m.Type.NumIn() != 4 {
		t.Errorf("Keyed.AllowNAt: %v", m.Type)
	}
}

// TestDesignCodeIsSource checks that the code the page shows is the code
// the demos run: ServeCode, TiersCode and PerEndpointCode are their
// functions' text in designcode.go as go/parser finds it, doc comments
// included, byte for byte, cut from the embedded file by declText.
func TestDesignCodeIsSource(t *testing.T) {
	src, err := os.ReadFile("designcode.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(src) != designCode {
		t.Fatal("designCode is not designcode.go")
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "designcode.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	text := map[string]string{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
			text[fd.Name.Name] = string(src[fset.Position(fd.Doc.Pos()).Offset:fset.Position(fd.End()).Offset])
		}
	}
	if len(text) != 4 {
		t.Errorf("designcode.go has %d functions, want 4 (Serve, Tiers, EndpointKey, PerEndpoint)", len(text))
	}
	for name, got := range map[string]string{
		"Serve": ServeCode, "Tiers": TiersCode, "PerEndpoint": PerEndpointCode,
	} {
		want := text[name]
		if name == "PerEndpoint" {
			want = text["EndpointKey"] + "\n\n" + want
		}
		if want == "" || got != want {
			t.Errorf("%s: the page shows\n%s\nbut designcode.go has\n%s", name, got, want)
		}
	}
}

// TestDeclText checks the cutter on a one-line function, a multi-line one,
// a range of two, and names that are missing.
func TestDeclText(t *testing.T) {
	src := "package p\n\n// A is one line.\nfunc A() int { return 1 }\n\n// B is two\n// lines of doc.\nfunc B() {\n\tif true {\n\t}\n}\n"
	for _, c := range []struct{ first, last, want string }{
		{"A", "A", "// A is one line.\nfunc A() int { return 1 }"},
		{"B", "B", "// B is two\n// lines of doc.\nfunc B() {\n\tif true {\n\t}\n}"},
		{"A", "B", "// A is one line.\nfunc A() int { return 1 }\n\n// B is two\n// lines of doc.\nfunc B() {\n\tif true {\n\t}\n}"},
		{"C", "C", ""},
		{"B", "A", ""},
	} {
		if got := declText(src, c.first, c.last); got != c.want {
			t.Errorf("declText(%s, %s) = %q, want %q", c.first, c.last, got, c.want)
		}
	}
}

// TestOneLimitCode checks the factory text of every strategy: the same
// four lines but the constructor, which is exactly Budget's config.
func TestOneLimitCode(t *testing.T) {
	want := map[limiter.Kind]string{
		limiter.KindTokenBucket:          "limiter.NewTokenBucket(5, 5)",
		limiter.KindGCRA:                 "limiter.NewGCRA(5, 5)",
		limiter.KindLeakyBucket:          "limiter.NewLeakyBucket(5, 200*time.Millisecond)",
		limiter.KindFixedWindow:          "limiter.NewFixedWindow(5, time.Second)",
		limiter.KindSlidingWindowLog:     "limiter.NewSlidingWindowLog(5, time.Second)",
		limiter.KindSlidingWindowCounter: "limiter.NewSlidingWindowCounter(5, time.Second)",
	}
	for _, k := range limiter.Kinds {
		got := OneLimitCode(Budget(k, SwitchLimit, SwitchWindow))
		exp := "keyed, err := limiter.NewKeyed(func(key string) (limiter.Strategy, error) {\n" +
			"\t// The only line that changes with the strategy:\n\treturn " + want[k] + "\n}, limiter.KeyedOptions{})"
		if got != exp {
			t.Errorf("%s:\n%s\nwant\n%s", k, got, exp)
		}
	}
}

// TestSwitchRun checks the strategy switch's exact answers: the same 14
// requests through Serve, four different sequences among six strategies.
func TestSwitchRun(t *testing.T) {
	want := map[limiter.Kind]string{
		limiter.KindTokenBucket:          "✓✓✓✓✓✓✓✓✓✓✕✓✓✕",
		limiter.KindGCRA:                 "✓✓✓✓✓✓✓✓✓✓✕✓✓✕",
		limiter.KindLeakyBucket:          "✓✓✓✓✓✓✓✓✓✓✕✓✓✕",
		limiter.KindFixedWindow:          "✓✓✓✓✓✕✓✓✓✓✓✕✕✕",
		limiter.KindSlidingWindowLog:     "✓✓✓✓✓✕✓✓✓✕✕✕✕✕",
		limiter.KindSlidingWindowCounter: "✓✓✓✓✓✕✕✕✕✕✕✓✓✕",
	}
	for _, k := range limiter.Kinds {
		calls, err := SwitchRun(k, SwitchRequests())
		if err != nil {
			t.Fatal(err)
		}
		s := ""
		for i, c := range calls {
			if c.At != SwitchRequests()[i] || c.Key != "alice" {
				t.Errorf("%s call %d: %v %q", k, i, c.At, c.Key)
			}
			s += map[int]string{200: "✓", 429: "✕"}[c.Reply.Status]
		}
		if s != want[k] {
			t.Errorf("%s: %s; want %s", k, s, want[k])
		}
	}
	calls, _ := SwitchRun(limiter.KindFixedWindow, SwitchRequests())
	if got := ReplyText(calls[5].Reply) + " " + ReplyText(calls[6].Reply); got != "429 (retry after 400 ms) 200 (4 left)" {
		t.Errorf("fixed window, requests 6 and 7: %s", got)
	}
}

// TestDemoTiersAndEndpoints checks the tiers and the composite key with
// every strategy: at one instant each key gets exactly its budget, and an
// endpoint with no limit is the factory's error, a 500 naming it.
func TestDemoTiersAndEndpoints(t *testing.T) {
	for _, k := range limiter.Kinds {
		d, err := NewDemo(Tiers(TierConfigs(k)))
		if err != nil {
			t.Fatal(err)
		}
		d.Send(0, "free:alice", 10)
		d.Send(0, "pro:bob", 60)
		d.Send(0, "carol", 6)
		fa, fr := d.Count("free:alice")
		pa, pr := d.Count("pro:bob")
		ca, cr := d.Count("carol")
		if fa != 5 || fr != 5 || pa != 50 || pr != 10 || ca != 5 || cr != 1 || d.Keys() != 3 {
			t.Errorf("%s tiers: free %d/%d, pro %d/%d, carol %d/%d, %d keys; want 5/5, 50/10, 5/1, 3", k, fa, fr, pa, pr, ca, cr, d.Keys())
		}
		e, _ := NewDemo(PerEndpoint(EndpointLimits(k)))
		e.Send(0, EndpointKey("alice", "/search"), 8)
		e.Send(0, EndpointKey("alice", "/upload"), 8)
		e.Send(0, EndpointKey("bob", "/upload"), 3)
		bad := e.Send(0, EndpointKey("alice", "/admin"), 1)
		sa, _ := e.Count("alice /search")
		ua, _ := e.Count("alice /upload")
		ba, _ := e.Count("bob /upload")
		if sa != 5 || ua != 2 || ba != 2 || e.Keys() != 3 {
			t.Errorf("%s endpoints: /search %d, /upload %d, bob %d, %d keys; want 5, 2, 2, 3", k, sa, ua, ba, e.Keys())
		}
		if bad[0].Reply.Status != 500 || bad[0].Reply.Err != `endpoint "/admin" has no limit` {
			t.Errorf("%s /admin: %+v", k, bad[0].Reply)
		}
	}
}

// TestDesignLesson checks the lesson's check message and its table.
func TestDesignLesson(t *testing.T) {
	l, ok := LessonByID(DesignLessonID)
	if !ok || l.Number != 1 || Lessons()[0].ID != DesignLessonID {
		t.Fatalf("the design lesson is not first: %v %d", ok, l.Number)
	}
	r, err := l.Run()
	if err != nil {
		t.Fatal(err)
	}
	ok, msg := l.Check(r)
	want := "one caller, six strategies, the same 14 requests: token bucket 12, GCRA 12, leaky bucket 12, fixed window 10, " +
		"sliding window log 8, sliding window counter 7 admitted (4 different answer sequences). Tiers (token bucket): " +
		"free:alice 5 of 10, pro:bob 50 of 60. Composite keys: alice /search 5 of 8 and alice /upload 2 of 8, two keys limited apart."
	if !ok || msg != want {
		t.Errorf("check %v: %s\nwant %s", ok, msg, want)
	}
	if got := strings.Join(r.Columns, " | "); got != "request | at | token bucket | GCRA | leaky bucket | fixed window | sliding window log | sliding window counter" {
		t.Errorf("columns: %s", got)
	}
	if got := strings.Join(r.Rows[6], " | "); got != "7 | 1 s | 200 (3 left) | 200 (3 left) | 200 (3 left) | 200 (4 left) | 200 (2 left) | 429 (retry after 200 ms)" {
		t.Errorf("row 7: %s", got)
	}
}

// TestDemoConfigText checks the tiers' configs of every strategy as the
// design lesson says them: rates and windows in words.
func TestDemoConfigText(t *testing.T) {
	want := map[limiter.Kind][2]string{
		limiter.KindTokenBucket:          {"token bucket: 5 per minute, burst 5", "token bucket: 50 per minute, burst 50"},
		limiter.KindGCRA:                 {"GCRA: 5 per minute, burst 5", "GCRA: 50 per minute, burst 50"},
		limiter.KindLeakyBucket:          {"leaky bucket: capacity 5, leaks 1 per 12 s", "leaky bucket: capacity 50, leaks 1 per 1.2 s"},
		limiter.KindFixedWindow:          {"fixed window: 5 per minute", "fixed window: 50 per minute"},
		limiter.KindSlidingWindowLog:     {"sliding window log: 5 per minute", "sliding window log: 50 per minute"},
		limiter.KindSlidingWindowCounter: {"sliding window counter: 5 per minute", "sliding window counter: 50 per minute"},
	}
	for _, k := range limiter.Kinds {
		free, pro := TierConfigs(k)
		if got := [2]string{DemoConfigText(free), DemoConfigText(pro)}; got != want[k] {
			t.Errorf("%s: %q, want %q", k, got, want[k])
		}
	}
	if got := DemoConfigText(Budget(limiter.KindTokenBucket, SwitchLimit, SwitchWindow)); got != "token bucket: 5 per second, burst 5" {
		t.Errorf("switch: %q", got)
	}
	if got := BudgetText(UploadLimit, DemoWindow); got != "2 per minute" {
		t.Errorf("BudgetText: %q", got)
	}
}
