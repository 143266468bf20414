package ir

import (
	"reflect"
	"strings"
	"testing"
)

// TestPathForms reads each form a spec, an older IR or a report holds and
// writes it back in the one text form.
func TestPathForms(t *testing.T) {
	for in, want := range map[string]string{
		"spec.replicas":                            "spec.replicas",
		"spec.containers[0].image":                 "spec.containers[0].image",
		"spec.containers.0.image":                  "spec.containers[0].image",
		"status.conditions[*].lastTransitionTime":  "status.conditions.*.lastTransitionTime",
		"status.conditions.*.lastTransitionTime":   "status.conditions.*.lastTransitionTime",
		`metadata.labels."app.kubernetes.io/name"`: `metadata.labels."app.kubernetes.io/name"`,
		"metadata.labels.app-name":                 `metadata.labels."app-name"`,
		`metadata.labels."app-name"`:               `metadata.labels."app-name"`,
		`data."0"`:                                 `data."0"`,
		`a."*"`:                                    `a."*"`,
		"[0].name":                                 "[0].name",
		"status.conditions[type=Ready].status":     "status.conditions[type=Ready].status",
		`spec.ports[port=80,protocol=TCP].name`:    `spec.ports[port=80,protocol=TCP].name`,
		`spec.ports[port="a,b",protocol=""].name`:  `spec.ports[port="a,b",protocol=""].name`,
		`x[name="sp ace"]`:                         `x[name="sp ace"]`,
		`x["app.kubernetes.io/name"=web]`:          `x["app.kubernetes.io/name"=web]`,
		`a."q\"uote"."back\\slash"."sp ace".x_1`:   `a."q\"uote"."back\\slash"."sp ace".x_1`,
		"status.podIPs.1":                          "status.podIPs[1]",
		"metadata.annotations.\"kubectl.kubernetes.io/last-applied-configuration\"": "metadata.annotations.\"kubectl.kubernetes.io/last-applied-configuration\"",
	} {
		p, err := ParsePath(in)
		if err != nil {
			t.Errorf("ParsePath(%q): %v", in, err)
			continue
		}
		if got := p.String(); got != want {
			t.Errorf("ParsePath(%q).String() = %q, want %q", in, got, want)
		}
	}
}

func TestPathElems(t *testing.T) {
	p, err := ParsePath(`spec.containers[0]."a.b".*[type=Ready]`)
	if err != nil {
		t.Fatal(err)
	}
	want := Path{FieldElem("spec"), FieldElem("containers"), IndexElem(0), FieldElem("a.b"), AnyElem(),
		SelectElem([]string{"type"}, []string{"Ready"})}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("ParsePath = %#v, want %#v", p, want)
	}
}

func TestParsePathErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":           "empty",
		"a..b":       `offset 2: want a name, got '.'`,
		".a":         `offset 0: want a name, got '.'`,
		"a.":         "offset 2: want a name, got the end",
		`a."b`:       "bad quoted name",
		`a."b"c`:     `want '.' or '[', got 'c'`,
		"a[x]":       `want a list index, * or key=value inside [], got "x"`,
		"a[-1]":      `got "-1"`,
		"a[0":        "want '=' after key",
		"a]":         `want '.' or '[', got ']'`,
		"a b":        `want '.' or '[', got ' '`,
		"a/b":        `want '.' or '[', got '/'`,
		"a[k=]":      `selector value "": quote it`,
		"a[k=v":      "want ',' or ']' in a selector, got the end",
		"a[k=a b]":   `selector value "a b": quote it`,
		"a[k=v;x=y]": `selector value "v;x=y": quote it`,
	} {
		_, err := ParsePath(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParsePath(%q): error %v, want one containing %q", in, err, want)
		}
	}
	if _, err := ParsePattern("status.conditions[type=Ready].status"); err == nil ||
		!strings.Contains(err.Error(), "key selector [type=Ready] is not allowed here") {
		t.Errorf("ParsePattern accepts a selector: %v", err)
	}
}

func TestPathMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"spec", "spec.replicas", true},
		{"spec.replicas", "spec", false},
		{"status.conditions.*.lastTransitionTime", "status.conditions[2].lastTransitionTime", true},
		{"status.conditions.*.lastTransitionTime", "status.conditions[type=Ready].lastTransitionTime", true},
		{"status.conditions[type=Ready]", "status.conditions[type=Ready].status", true},
		{"status.conditions[type=Ready]", "status.conditions[type=Synced].status", false},
		{"status.conditions[0]", "status.conditions[type=Ready]", false},
		{"spec.containers[0]", `spec.containers."0"`, true},
		{`data."0"`, "data[0]", true},
		{`a."*"`, "a.b", false},
		{"a.b", "a.c", false},
	} {
		pat, err1 := ParsePath(c.pattern)
		p, err2 := ParsePath(c.path)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if got := pat.MatchesPrefix(p); got != c.want {
			t.Errorf("%s matches %s: %v, want %v", c.pattern, c.path, got, c.want)
		}
	}
}

func TestPathLookup(t *testing.T) {
	obj := map[string]any{
		"spec": map[string]any{"containers": []any{map[string]any{"image": "a"}, map[string]any{"image": "b"}}},
		"status": map[string]any{"conditions": []any{
			map[string]any{"type": "Ready", "status": "True"},
			map[string]any{"type": "Synced", "status": "False", "n": 2.0},
		}},
		"data": map[string]any{"0": "zero"},
	}
	for in, want := range map[string]any{
		"spec.containers[1].image":                  "b",
		"spec.containers.0.image":                   "a",
		"status.conditions[type=Synced].status":     "False",
		"status.conditions[type=Synced,n=2].status": "False",
		"data[0]":                                  "zero",
		"spec.containers[2].image":                 nil,
		"status.conditions[type=Gone].status":      nil,
		"spec.containers.*.image":                  nil,
		"spec.containers[0].image.x":               nil,
		"status.conditions[type=Ready,n=2].status": nil,
	} {
		p, err := ParsePath(in)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := p.Lookup(obj)
		if ok != (want != nil) || got != want {
			t.Errorf("Lookup(%s) = %v, %v; want %v", in, got, ok, want)
		}
	}
}

// FuzzPath holds the text form to a round trip: a path that parses writes
// back as text that parses to the same path, and that text is stable.
// Nothing panics on any input.
func FuzzPath(f *testing.F) {
	for _, s := range []string{
		"spec.replicas", "spec.containers[0].image", "spec.containers.0.image", `a."b.c"[*]`,
		"status.conditions[type=Ready].status", `x[k="a,b",j=""]`, `"*"`, "[3]", "a-b.c_d",
		`"\xff"`, `x[k="\u00e9"]`, "a[99999999999999999999]", "a.99999999999999999999",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePath(s)
		if err != nil {
			return
		}
		text := p.String()
		back, err := ParsePath(text)
		if err != nil {
			t.Fatalf("ParsePath(%q) = %#v writes %q, which does not parse: %v", s, p, text, err)
		}
		if !reflect.DeepEqual(back, p) {
			t.Fatalf("ParsePath(%q) = %#v writes %q, which parses to %#v", s, p, text, back)
		}
		if again := back.String(); again != text {
			t.Fatalf("%q writes %q, then %q", s, text, again)
		}
	})
}
