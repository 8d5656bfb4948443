package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"sluice/internal/safepath"
)

// Role is what an authenticated caller may do; each holds the ones
// before it. RoleRead runs read-only statements (sql.ReadOnly) and the
// status endpoints; RoleWrite adds sql.WritesData (INSERT, INSERT STREAM,
// START and STOP STREAM on existing tables); RoleAdmin everything. Below
// admin, a caller reaches data only through catalog tables and the
// server's --allow-location prefixes (engine.Session.RestrictData). The
// zero Role may do nothing.
type Role int

const (
	RoleNone Role = iota
	RoleRead
	RoleWrite
	RoleAdmin
)

func (r Role) String() string {
	switch r {
	case RoleRead:
		return "read"
	case RoleWrite:
		return "write"
	case RoleAdmin:
		return "admin"
	}
	return "none"
}

// ParseRole reads "read", "write" or "admin".
func ParseRole(s string) (Role, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "read":
		return RoleRead, nil
	case "write":
		return RoleWrite, nil
	case "admin":
		return RoleAdmin, nil
	}
	return RoleNone, fmt.Errorf("role %q: want read, write or admin", s)
}

// UsersFileName is the users file inside a data dir, used when `sluice
// serve` is given no --users and the file exists.
const UsersFileName = "users"

// DefaultUsersFile is <dataDir>/users.
func DefaultUsersFile(dataDir string) string { return filepath.Join(dataDir, UsersFileName) }

// Users is the users file: accounts with bcrypt password hashes and API
// tokens stored as SHA-256 hashes (a token is 32 random bytes, so a fast
// hash is as strong as the token; bcrypt would cost every request tens
// of milliseconds). Nothing in it can be turned back into a credential,
// and it is still written 0600.
type Users struct {
	Users  []UserEntry  `json:"users"`
	Tokens []TokenEntry `json:"tokens,omitempty"`
}

// UserEntry is one account of HTTP basic auth.
type UserEntry struct {
	Name   string `json:"name"`
	Role   string `json:"role"`
	Bcrypt string `json:"bcrypt"`
}

// TokenEntry is one bearer token: only its SHA-256 is kept.
type TokenEntry struct {
	Name    string    `json:"name"`
	Role    string    `json:"role"`
	SHA256  string    `json:"sha256"`
	Created time.Time `json:"created"`
}

// tokenPrefix marks Sluice's tokens, so a leaked one is recognizable
// (secret scanners) and a password is never mistaken for one.
const tokenPrefix = "sluice_"

// LoadUsers reads a users file; a file that does not exist is an empty
// Users and an error wrapping os.ErrNotExist.
func LoadUsers(path string) (*Users, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return &Users{}, fmt.Errorf("reading users file: %w", err)
	}
	var u Users
	if err := json.Unmarshal(data, &u); err != nil {
		return &Users{}, fmt.Errorf("reading users file %s: %w", path, err)
	}
	for _, e := range u.Users {
		if _, err := ParseRole(e.Role); err != nil {
			return &Users{}, fmt.Errorf("users file %s: user %s: %w", path, e.Name, err)
		}
	}
	for _, e := range u.Tokens {
		if _, err := ParseRole(e.Role); err != nil {
			return &Users{}, fmt.Errorf("users file %s: token %s: %w", path, e.Name, err)
		}
	}
	return &u, nil
}

// Save writes the file atomically (a temporary file renamed over it),
// readable by the owner only; its directory is created 0700 if missing.
func (u *Users) Save(path string) error {
	sort.Slice(u.Users, func(i, j int) bool { return u.Users[i].Name < u.Users[j].Name })
	data, err := json.MarshalIndent(u, "", "  ")
	if err != nil {
		return fmt.Errorf("saving users file: %w", err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("saving users file: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".users-*.tmp") // 0600
	if err != nil {
		return fmt.Errorf("saving users file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("saving users file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("saving users file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving users file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("saving users file: %w", err)
	}
	return os.Chmod(path, 0o600)
}

// SetPassword adds user name or changes its password; role RoleNone
// keeps an existing user's role (a new one gets RoleRead). cost 0 is
// bcrypt.DefaultCost.
func (u *Users) SetPassword(name, password string, role Role, cost int) error {
	if err := checkPrincipalName(name); err != nil {
		return err
	}
	if password == "" {
		return errors.New("the password is empty")
	}
	if len(password) > 72 {
		return errors.New("the password is longer than 72 bytes (bcrypt's limit)")
	}
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), cost)
	if err != nil {
		return fmt.Errorf("hashing the password: %w", err)
	}
	for i := range u.Users {
		if u.Users[i].Name == name {
			u.Users[i].Bcrypt = string(h)
			if role != RoleNone {
				u.Users[i].Role = role.String()
			}
			return nil
		}
	}
	if role == RoleNone {
		role = RoleRead
	}
	u.Users = append(u.Users, UserEntry{Name: name, Role: role.String(), Bcrypt: string(h)})
	return nil
}

// CreateToken adds a token named name (replacing one of that name) and
// returns it: the only time it is ever seen.
func (u *Users) CreateToken(name string, role Role) (string, error) {
	if err := checkPrincipalName(name); err != nil {
		return "", err
	}
	if role == RoleNone {
		return "", errors.New("a token needs a role (read, write or admin)")
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making a token: %w", err)
	}
	tok := tokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	e := TokenEntry{Name: name, Role: role.String(), SHA256: tokenHash(tok), Created: time.Now().UTC().Truncate(time.Second)}
	for i := range u.Tokens {
		if u.Tokens[i].Name == name {
			u.Tokens[i] = e
			return tok, nil
		}
	}
	u.Tokens = append(u.Tokens, e)
	return tok, nil
}

// RevokeToken removes the token named name; false if there was none.
func (u *Users) RevokeToken(name string) bool {
	for i := range u.Tokens {
		if u.Tokens[i].Name == name {
			u.Tokens = append(u.Tokens[:i], u.Tokens[i+1:]...)
			return true
		}
	}
	return false
}

func tokenHash(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// checkPrincipalName keeps names printable and free of the basic-auth
// separator.
func checkPrincipalName(name string) error {
	if err := safepath.CheckName(name); err != nil || strings.ContainsAny(name, ": \t") {
		return fmt.Errorf("name %q: use letters, digits, '_', '-' or '.'", name)
	}
	return nil
}
