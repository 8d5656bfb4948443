package server

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestUsersFile: what sluice passwd and sluice token do to the file, a
// missing one included, as the server then reads it.
func TestUsersFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", UsersFileName)
	f, err := OpenUsersFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetPassword("alice", "pw-1", RoleAdmin); err != nil {
		t.Fatal(err)
	}
	if err := f.SetPassword("bob", "pw-2", RoleNone); err != nil {
		t.Fatal(err)
	}
	if err := f.SetPassword("carol", "", RoleRead); err == nil {
		t.Error("an empty password was saved")
	}
	tok, err := f.CreateToken("dash", RoleRead)
	if err != nil || !strings.HasPrefix(tok, tokenPrefix) {
		t.Fatalf("CreateToken = %q, %v", tok, err)
	}
	if _, err := f.CreateToken("nobody", RoleNone); err == nil {
		t.Error("a token without a role was created")
	}

	f, err = OpenUsersFile(path)
	if err != nil {
		t.Fatal(err)
	}
	roles := map[string]string{}
	for _, e := range f.users.Users {
		roles[e.Name] = e.Role
	}
	if roles["alice"] != RoleAdmin.String() || roles["bob"] != RoleRead.String() || len(roles) != 2 {
		t.Errorf("users after reopening: %v", roles)
	}
	if len(f.users.Tokens) != 1 || f.users.Tokens[0].Name != "dash" {
		t.Errorf("tokens after reopening: %+v", f.users.Tokens)
	}
	if err := f.RevokeToken("dash"); err != nil {
		t.Fatal(err)
	}
	if err := f.RevokeToken("dash"); err == nil || !strings.Contains(err.Error(), "no token dash in "+path) {
		t.Errorf("revoking twice: %v", err)
	}
}

// TestReadNewPassword: off a terminal the password is one line of stdin.
func TestReadNewPassword(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"s3cret\n", "s3cret", true},
		{"s3cret\r\nnext\n", "s3cret", true},
		{"no-newline", "no-newline", true},
		{"", "", false},
	} {
		got, err := ReadNewPassword("alice", strings.NewReader(tc.in), nil)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("%q: %q, %v; want %q (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
