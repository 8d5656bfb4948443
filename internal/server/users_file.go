package server

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// UsersFile is the users file as `sluice passwd` and `sluice token` edit
// it, with no server running (a running one reloads the file when it
// changes): each change is saved at once. The logic lives here, beside
// the Users it edits, so cmd/sluice only parses flags.
type UsersFile struct {
	path  string
	users *Users
}

// OpenUsersFile reads the users file at path; a missing file is an
// empty one, created by the first change.
func OpenUsersFile(path string) (*UsersFile, error) {
	u, err := LoadUsers(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return &UsersFile{path: path, users: u}, nil
}

// Path is the file's path, for messages.
func (f *UsersFile) Path() string { return f.path }

// SetPassword adds user name or changes its password (and, unless role
// is RoleNone, its role), then saves the file.
func (f *UsersFile) SetPassword(name, password string, role Role) error {
	if err := f.users.SetPassword(name, password, role, 0); err != nil {
		return err
	}
	return f.users.Save(f.path)
}

// CreateToken adds (or replaces) the token named name, saves the file
// and returns the token: the only time it is ever seen.
func (f *UsersFile) CreateToken(name string, role Role) (string, error) {
	tok, err := f.users.CreateToken(name, role)
	if err != nil {
		return "", err
	}
	if err := f.users.Save(f.path); err != nil {
		return "", err
	}
	return tok, nil
}

// RevokeToken removes the token named name and saves the file; an error
// if there is none.
func (f *UsersFile) RevokeToken(name string) error {
	if !f.users.RevokeToken(name) {
		return fmt.Errorf("no token %s in %s", name, f.path)
	}
	return f.users.Save(f.path)
}

// ReadNewPassword reads user's new password for `sluice passwd`: asked
// twice without echo when stdin is a terminal (prompts on stderr, so
// stdout stays the command's output), else one line of stdin, so a
// script can pipe it in.
func ReadNewPassword(user string, stdin io.Reader, stderr io.Writer) (string, error) {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(stderr, "New password for %s: ", user)
		a, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return "", fmt.Errorf("reading the password: %w", err)
		}
		fmt.Fprint(stderr, "Again: ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return "", fmt.Errorf("reading the password: %w", err)
		}
		if string(a) != string(b) {
			return "", errors.New("the passwords differ")
		}
		return string(a), nil
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && line != "") {
		return "", errors.New("no password on stdin")
	}
	return strings.TrimRight(line, "\r\n"), nil
}
