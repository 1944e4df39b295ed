package scenarios

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/scenarios/plans"
)

const secretBase = `target: {url: https://127.0.0.1:8443/}
vars: {tok: tok-from-a-var}
server:
  start: nginx -g 'env KAE_PASS;'
  env:
    LD_LIBRARY_PATH: /usr/local/lib
    KAE_PASS: {value: s3cr3t-pass, secret: true}
    PLAIN_MAPPING: {value: shown}
variants:
  - name: stock
  - name: kae
    env:
      OPENSSL_CONF: /home/openssl.cnf
      API_TOKEN: {value: "{tok}", secret: true}
  - name: other-pass
    env: {KAE_PASS: another-pass}
`

// secretValues are the values of secretBase that must never be shown.
var secretValues = []string{"s3cr3t-pass", "tok-from-a-var", "another-pass"}

// TestSecretEnv decodes env entries in the mapping form and checks that
// the plan holds the real values, knows which are secret, and shows none
// of them: not in Describe, not in Redacted's or the plan's own JSON.
func TestSecretEnv(t *testing.T) {
	p := mustCompile(t, secretBase, eightCPUs)
	checks := []struct {
		name      string
		got, want any
	}{
		{"stock env", p.Variants[0].Env, map[string]string{"LD_LIBRARY_PATH": "/usr/local/lib", "KAE_PASS": "s3cr3t-pass", "PLAIN_MAPPING": "shown"}},
		{"stock secret keys", p.Variants[0].SecretEnv, []string{"KAE_PASS"}},
		{"kae env", p.Variants[1].Env["API_TOKEN"], "tok-from-a-var"},
		{"kae secret keys", p.Variants[1].SecretEnv, []string{"API_TOKEN", "KAE_PASS"}},
		// server.env marked KAE_PASS secret: a variant's own value stays secret.
		{"override stays secret", [2]any{p.Variants[2].Env["KAE_PASS"], p.Variants[2].SecretEnv}, [2]any{"another-pass", []string{"KAE_PASS"}}},
		{"secrets, longest first", p.Secrets, []string{"tok-from-a-var", "another-pass", "s3cr3t-pass"}},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}

	var desc bytes.Buffer
	Describe(&desc, p)
	for _, want := range []string{"KAE_PASS=<secret>", "API_TOKEN=<secret>", "tok=<secret>", "LD_LIBRARY_PATH=/usr/local/lib", "PLAIN_MAPPING=shown", "OPENSSL_CONF=/home/openssl.cnf"} {
		if !strings.Contains(desc.String(), want) {
			t.Errorf("Describe lacks %q:\n%s", want, desc.String())
		}
	}
	// The variants' KAE_PASS values differ, so it is not shown as shared.
	if strings.Contains(desc.String(), "KAE_PASS=<secret> PLAIN_MAPPING=shown (every variant)") {
		t.Errorf("Describe shows differing secrets as one:\n%s", desc.String())
	}

	r := p.Redacted()
	redactedJSON, err := json.Marshal(r) // encoding redacts again, which changes nothing
	if err != nil {
		t.Fatal(err)
	}
	planJSON, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(planJSON), string(redactedJSON); got != want {
		t.Errorf("the plan's JSON is not its redacted copy's:\ngot  %s\nwant %s", got, want)
	}
	for name, text := range map[string]string{"Describe": desc.String(), "JSON": string(planJSON)} {
		for _, s := range secretValues {
			if strings.Contains(text, s) {
				t.Errorf("%s shows secret %q:\n%s", name, s, text)
			}
		}
	}
	if got, want := r.Variants[1].Env, (map[string]string{"LD_LIBRARY_PATH": "/usr/local/lib", "KAE_PASS": plans.SecretPlaceholder,
		"PLAIN_MAPPING": "shown", "OPENSSL_CONF": "/home/openssl.cnf", "API_TOKEN": plans.SecretPlaceholder}); !reflect.DeepEqual(got, want) {
		t.Errorf("redacted env = %v, want %v", got, want)
	}
	if got, want := r.Variants[1].Vars["tok"], plans.SecretPlaceholder; got != want {
		t.Errorf("redacted var = %q, want %q", got, want)
	}
	if got, want := p.Variants[1].Env["API_TOKEN"], "tok-from-a-var"; got != want {
		t.Errorf("Redacted modified the original: API_TOKEN = %q, want %q", got, want)
	}
	if got, want := p.Variants[1].Vars["tok"], "tok-from-a-var"; got != want {
		t.Errorf("Redacted modified the original: tok = %q, want %q", got, want)
	}
	var back plans.Plan
	if err := json.Unmarshal(planJSON, &back); err != nil {
		t.Fatal(err)
	}
	if got, want := [2]any{back.Variants[0].Env["KAE_PASS"], back.Variants[0].SecretEnv}, [2]any{plans.SecretPlaceholder, []string{"KAE_PASS"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("decoded plan: %v, want %v", got, want)
	}
}

// TestRedactCompiled checks Redact on a compiled plan: a secret of
// server.env is hidden wherever it occurs in the text.
func TestRedactCompiled(t *testing.T) {
	s := mustCompile(t, secretBase, eightCPUs)
	text := "server.env.KAE_PASS=s3cr3t-pass; nginx said: bad passphrase s3cr3t-pass"
	if got, want := s.Redact(text), "server.env.KAE_PASS=<secret>; nginx said: bad passphrase <secret>"; got != want {
		t.Errorf("Redact(%q) = %q, want %q", text, got, want)
	}
}

// TestSetSecretEnv checks --set on env entries: a plain value keeps the
// entry's secret mark, the mapping form replaces it, a template is taken
// as written, and a problem with a secret set value does not show it.
func TestSetSecretEnv(t *testing.T) {
	tests := []struct {
		path, value string
		variant     int
		key, want   string
		secret      bool
	}{
		{"server.env.KAE_PASS", "new-pass", 0, "KAE_PASS", "new-pass", true},
		{"server.env.KAE_PASS.secret", "false", 0, "KAE_PASS", "s3cr3t-pass", false},
		{"server.env.KAE_PASS.value", "v2", 0, "KAE_PASS", "v2", true},
		{"server.env.LD_LIBRARY_PATH", "{value: /opt/lib, secret: true}", 0, "LD_LIBRARY_PATH", "/opt/lib", true},
		{"variants[0].env.NEW", "{value: n, secret: true}", 0, "NEW", "n", true},
		{"variants[0].env.DIR", "{scenario_dir}", 0, "DIR", absDir("t.yaml"), false},
		{"variants[0].env.TOK", "{tok}", 0, "TOK", "tok-from-a-var", false},
		{"variants[1].env.API_TOKEN", "{value: plain}", 1, "API_TOKEN", "plain", false},
	}
	for _, tt := range tests {
		t.Run(tt.path+"="+tt.value, func(t *testing.T) {
			s, err := Parse("t.yaml", []byte(secretBase))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Set(tt.path, tt.value); err != nil {
				t.Fatalf("Set: %v", err)
			}
			p, err := s.Compile(eightCPUs)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			mustCheck(t, p)
			v := p.Variants[tt.variant]
			secret := strings.Contains(" "+strings.Join(v.SecretEnv, " ")+" ", " "+tt.key+" ")
			if got, want := [2]any{v.Env[tt.key], secret}, [2]any{tt.want, tt.secret}; got != want {
				t.Errorf("%s = %q, secret %v; want %q, secret %v", tt.key, got[0], got[1], want[0], want[1])
			}
		})
	}

	s, err := Parse("t.yaml", []byte(secretBase))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set("server.env.KAE_PASS", "pa{ss"); err != nil {
		t.Fatal(err)
	}
	_, err = s.Compile(eightCPUs)
	want := "--set server.env.KAE_PASS=<secret>: server.env.KAE_PASS: the secret value has a brace that is not a {name} reference (write {{ and }} for literal braces)"
	if got := errString(err); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
