package runner

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/testkit"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/render"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestSpeedSchedule runs two variants × two repetitions interleaved, each
// with three speed commands: one printing bssl output that names the
// variant's env, one failing, one printing nothing parsable. Speed runs
// once per variant, in its first session, between the stop and the start;
// the failures are recorded and warned about and do not fail the run.
func TestSpeedSchedule(t *testing.T) {
	endToEndOnce(t, "when speed commands run")
	needCPUs(t, 1)
	p := builtinPlan(300*time.Millisecond, []int{0})
	p.Load.Warmup = 100 * time.Millisecond
	p.Repeat = 2
	p.Order = results.OrderInterleaved
	calls := commandLog(t, p, map[string]string{"OPS": "801.2"}, map[string]string{"OPS": "1602.4"})
	file := filepath.Join(filepath.Dir(strings.Fields(p.Variants[0].Start)[len(strings.Fields(p.Variants[0].Start))-1]), "commands")
	for i := range p.Variants {
		p.Variants[i].Speed = []plans.Speed{
			{Command: fmt.Sprintf(`echo "speed $V" >> %s; echo "Did 4823 RSA 2048 signing operations in 6019561us ($OPS ops/sec)"`, file), Timeout: 5 * time.Second},
			{Command: "echo 'engine not found' >&2; exit 3", Timeout: 5 * time.Second},
			{Command: "echo hello", Timeout: 5 * time.Second},
		}
	}
	// Server info runs once per variant too, when its server is ready,
	// with its env; a failing command is recorded, not fatal.
	p.Server.Info = []string{"echo info $OPS; echo second line", "echo gone >&2; exit 4"}
	run, log := runLogged(t, p)
	for i, want := range []string{"info 801.2\nsecond line", "info 1602.4\nsecond line"} {
		in := run.Variants[i].Info
		if len(in) != 2 || in[0].Output != want || in[0].Error != "" || !strings.Contains(in[1].Error, "exit status 4") {
			t.Errorf("variant %s: server info %+v, want %q and an exit status 4", run.Variants[i].Name, in, want)
		} else if got, want := in[0].Line(), "echo info $OPS; echo second line: "+strings.Split(want, "\n")[0]; got != want {
			t.Errorf("info line %q, want %q", got, want)
		}
	}
	if got, want := calls(), "stop a, speed a, start a, stop a, stop b, speed b, start b, stop b, stop a, start a, stop a, stop b, start b, stop b"; got != want {
		t.Errorf("commands\n got %q\nwant %q", got, want)
	}
	if got, want := len(run.Variants), 2; got != want {
		t.Fatalf("got %d variants, want %d", got, want)
	}
	for i, want := range []float64{801.2, 1602.4} {
		v := run.Variants[i]
		if got, wantN := len(v.Speed), 3; got != wantN {
			t.Fatalf("variant %s: %d speed runs, want %d: %+v", v.Name, got, wantN, v.Speed)
		}
		ok := v.Speed[0]
		if got, wantR := ok.Results, []results.SpeedResult{{Algorithm: "RSA 2048", Operation: "signing", Value: want, Unit: "ops/s"}}; ok.Error != "" || len(got) != 1 || got[0] != wantR[0] {
			t.Errorf("variant %s: speed[0] = %+v, want results %+v and no error", v.Name, ok, wantR)
		}
		if e := v.Speed[1].Error; !strings.Contains(e, "exit status 3") || !strings.Contains(e, "engine not found") {
			t.Errorf("variant %s: speed[1].Error = %q, want the exit status and output", v.Name, e)
		}
		if e := v.Speed[2].Error; !strings.HasPrefix(e, "no speed results found") {
			t.Errorf("variant %s: speed[2].Error = %q, want no speed results found", v.Name, e)
		}
	}
	warned := 0
	for _, w := range run.Warnings.Strings() {
		if strings.Contains(w, "speed command") {
			warned++
		}
	}
	if got, want := warned, 4; got != want {
		t.Errorf("%d speed warnings, want %d: %q", got, want, run.Warnings)
	}
	if !strings.Contains(log.String(), `variant b: speed command "echo hello": no speed results found`) {
		t.Errorf("run log does not mention the unparsable output:\n%s", log)
	}
}

// noASM is the OPENSSL_ia32cap value that turns off OpenSSL's x86
// assembly, making RSA markedly slower.
const noASM = "~0xffffffffffffffff:~0xffffffffffffffff"

// needOpenSSL skips without the openssl command, except under CI=true.
func needOpenSSL(t *testing.T) {
	t.Helper()
	testkit.NeedCommand(t, "openssl", "Debian's openssl package")
}

// TestSpeedOpenSSL runs the real openssl speed for two variants of the
// built-in target without a server section, one with OpenSSL's assembly
// turned off by env, and checks both figures were parsed and the report
// shows the crypto speed section.
func TestSpeedOpenSSL(t *testing.T) {
	endToEndOnce(t, "openssl speed runs")
	needCPUs(t, 1)
	needOpenSSL(t)
	p := builtinPlan(300*time.Millisecond, []int{0})
	p.Load.Warmup = 100 * time.Millisecond
	sp := []plans.Speed{{Command: "openssl speed -seconds 1 rsa2048", Timeout: time.Minute}}
	p.Variants = []plans.Variant{{Name: "asm", Speed: sp}, {Name: "noasm", Env: map[string]string{"OPENSSL_ia32cap": noASM}, Speed: sp}}
	run, _ := runLogged(t, p)
	var signs []float64
	for _, v := range run.Variants {
		var sign float64
		for _, s := range v.Speed {
			if s.Error != "" {
				t.Errorf("variant %s: %s", v.Name, s.Error)
			}
			for _, r := range s.Results {
				if r.Algorithm == "rsa 2048 bits" && r.Operation == "sign" {
					sign = r.Value
				}
			}
		}
		if sign <= 0 {
			t.Errorf("variant %s: rsa 2048 bits sign/s = %v, want > 0 (speed %+v)", v.Name, sign, v.Speed)
		}
		signs = append(signs, sign)
	}
	t.Logf("rsa 2048 sign/s: asm %v, noasm %v", signs[0], signs[1])
	var b strings.Builder
	if err := render.WriteText(&b, analysis.Analyze(run)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "crypto speed") || !strings.Contains(b.String(), "rsa 2048 bits sign") {
		t.Errorf("report has no crypto speed section with rsa 2048 bits sign:\n%s", b.String())
	}
}
