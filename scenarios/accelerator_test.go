package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/scenarios/plans"
)

// TestCompileAccelerator: accelerator.capacity is D as given; accelerator.speed reads D from an
// openssl speed output beside the scenario (two processes' RSA-2048 signatures, summed); each
// wrong form is an error at the key that says what to give instead.
func TestCompileAccelerator(t *testing.T) {
	const head = "target: {url: \"https://127.0.0.1:8443/\"}\n" +
		"load: {duration: 1s, groups: [{cpus: \"0\", connections: 1}]}\n"
	dir := t.TempDir()
	zero := "                  sign    verify    sign/s verify/s\nrsa 2048 bits 0.000729s 0.000024s      0.0  42480.0\n"
	if err := os.WriteFile(filepath.Join(dir, "zero.txt"), []byte(zero), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"kae-speed.txt", "bssl-rsa.txt", "evp.txt"} {
		data, err := os.ReadFile(filepath.Join("testdata", "speed", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	compile := func(yaml string) (*plans.Plan, error) {
		file := filepath.Join(dir, "s.yaml")
		if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		return loadCompile(file, smallHost)
	}
	for _, c := range []struct {
		name, yaml string
		want       *plans.Accelerator
	}{
		{"none", "", nil},
		{"capacity", "accelerator: {capacity: 120340}\n", &plans.Accelerator{Capacity: 120340}},
		{"speed", "accelerator: {speed: kae-speed.txt}\n",
			&plans.Accelerator{Capacity: 1371.6, Speed: "kae-speed.txt", Figure: "rsa 2048 bits sign"}},
	} {
		p, err := compile(head + c.yaml)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		mustCheck(t, p)
		switch got := p.Accelerator; {
		case (got == nil) != (c.want == nil), got != nil && *got != *c.want:
			t.Errorf("%s: accelerator %+v, want %+v", c.name, got, c.want)
		}
	}
	builtin := strings.Replace(head, `{url: "https://127.0.0.1:8443/"}`, "{builtin: {accel: {}}}", 1)
	for _, c := range []struct{ name, yaml, want string }{
		{"both", head + "accelerator: {capacity: 1000, speed: kae-speed.txt}\n", "accelerator: give one of capacity"},
		{"neither", head + "accelerator: {}\n", "accelerator: give one of capacity"},
		{"zero", head + "accelerator: {capacity: 0}\n", "accelerator.capacity: 0 is not a positive number"},
		{"infinite", head + "accelerator: {capacity: .inf}\n", "accelerator.capacity: +Inf is not a positive number"},
		{"not a number", head + "accelerator: {capacity: abc}\n", "accelerator.capacity: "},
		{"zero signatures", head + "accelerator: {speed: zero.txt}\n", "accelerator.speed: zero.txt: its rsa 2048 bits sign " +
			"figure is 0, not a positive number"},
		{"no file", head + "accelerator: {speed: gone.txt}\n", "accelerator.speed: read the speed output: "},
		{"no signing", head + "accelerator: {speed: evp.txt}\n", "accelerator.speed: evp.txt has no signing figure"},
		{"several", head + "accelerator: {speed: bssl-rsa.txt}\n", "accelerator.speed: bssl-rsa.txt has 3 signing figures " +
			"(RSA 2048 signing, RSA 3072 signing, RSA 4096 signing): keep the one"},
		{"simulated", builtin + "accelerator: {capacity: 1000}\n", "accelerator: the built-in target's simulated device"},
	} {
		_, err := compile(c.yaml)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("%s: error %v, want %q alone", c.name, err, c.want)
		}
	}
}
