package main

import (
	"encoding/base64"
	"strings"
	"testing"
)

// Without MARKUPROOM_SECRET_KEY the key comes from the session secret; once
// it is set, values sealed with the derived key still open (and are not
// current, so start-up seals them again), and a previous key opens too.
func TestSecretKeyring(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"MARKUPROOM_DATA_DIR": dir, "MARKUPROOM_SESSION_SECRET": strings.Repeat("s", 40)}
	keyring := func() (sealWith func(string) string, open func(string) (string, bool, error)) {
		t.Helper()
		cfg, err := loadConfig(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		k, err := cfg.keyring()
		if err != nil {
			t.Fatal(err)
		}
		return func(s string) string {
				v, err := k.Seal([]byte(s), "aad")
				if err != nil {
					t.Fatal(err)
				}
				return v
			}, func(v string) (string, bool, error) {
				pt, cur, err := k.Open(v, "aad")
				return string(pt), cur, err
			}
	}
	seal, open := keyring()
	derived := seal("one")
	if pt, cur, err := open(derived); err != nil || pt != "one" || !cur {
		t.Fatalf("derived keyring: %q %v %v", pt, cur, err)
	}

	key := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("k", 32)))
	env["MARKUPROOM_SECRET_KEY"] = key
	seal, open = keyring()
	if pt, cur, err := open(derived); err != nil || pt != "one" || cur {
		t.Fatalf("explicit key, value sealed with the derived one: %q %v %v", pt, cur, err)
	}
	explicit := seal("two")

	env["MARKUPROOM_SECRET_KEY"] = base64.StdEncoding.EncodeToString([]byte(strings.Repeat("n", 32)))
	env["MARKUPROOM_SECRET_KEY_PREVIOUS"] = key
	_, open = keyring()
	if pt, cur, err := open(explicit); err != nil || pt != "two" || cur {
		t.Fatalf("rotated key, value sealed with the previous one: %q %v %v", pt, cur, err)
	}
	delete(env, "MARKUPROOM_SECRET_KEY_PREVIOUS")
	delete(env, "MARKUPROOM_SESSION_SECRET")
	env["MARKUPROOM_DATA_DIR"] = t.TempDir()
	_, open = keyring()
	if _, _, err := open(explicit); err == nil {
		t.Fatal("a value sealed with a key that is gone opened")
	}
}

func TestBadSecretKeysExitWithUsage(t *testing.T) {
	c := newCLI(t, "")
	c.env["MARKUPROOM_SECRET_KEY"] = "c2hvcnQ="
	c.env["MARKUPROOM_SECRET_KEY_PREVIOUS"] = base64.StdEncoding.EncodeToString([]byte(strings.Repeat("k", 32))) + ",not base64!"
	code, _, errOut := c.run("", "org", "create", "--name", "X")
	if code != 2 || !strings.Contains(errOut, "MARKUPROOM_SECRET_KEY: ") || !strings.Contains(errOut, "MARKUPROOM_SECRET_KEY_PREVIOUS, key 2") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if strings.Contains(errOut, "c2hvcnQ") || strings.Contains(errOut, "a2tr") {
		t.Fatalf("a key was printed: %q", errOut)
	}
}

// A URL that does not even parse is not echoed: it may hold a password.
func TestUnparseableURLsAreNotEchoed(t *testing.T) {
	c := newCLI(t, "")
	c.env["MARKUPROOM_SMTP_URL"] = "smtp://u:pa%zzword1@mail.example.com"
	if code, _, errOut := c.run("", "org", "create", "--name", "X"); code != 2 || strings.Contains(errOut, "pa%zzword1") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	delete(c.env, "MARKUPROOM_SMTP_URL")
	c.env["DATABASE_URL"] = "mysql://u:pa%zzword2@db.example.com/x"
	if code, _, errOut := c.run("", "org", "create", "--name", "X"); code == 0 || strings.Contains(errOut, "pa%zzword2") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}
