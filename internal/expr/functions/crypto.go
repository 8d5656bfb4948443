package functions

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
	"strings"
)

// aes_encrypt / aes_decrypt in Spark's GCM mode (the default): the output
// is the 12-byte IV, the ciphertext and the 16-byte tag, so Spark can read
// what Sluice writes and back. Other modes are not supported.

func aesGCM(key []byte, args []any) (cipher.AEAD, error) {
	if len(args) > 0 && args[0] != nil {
		if m := strings.ToUpper(args[0].(string)); m != "GCM" {
			return nil, fmt.Errorf("mode %s is not supported (only GCM)", m)
		}
	}
	switch len(key) {
	case 16, 24, 32:
	default:
		return nil, fmt.Errorf("the key must be 16, 24 or 32 bytes, got %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// aes_encrypt(input, key[, mode[, padding[, iv[, aad]]]]).
var bindAESEncrypt = rowFnNulls("aes_encrypt", binaryType, ps(pBinary, pBinary, pString, pString, pBinary, pBinary), func(v []any) (any, error) {
	if v[0] == nil || v[1] == nil {
		return nil, nil
	}
	g, err := aesGCM(v[1].([]byte), v[2:])
	if err != nil {
		return nil, err
	}
	iv := make([]byte, g.NonceSize())
	if len(v) > 4 && v[4] != nil && len(v[4].([]byte)) > 0 {
		if iv = v[4].([]byte); len(iv) != g.NonceSize() {
			return nil, fmt.Errorf("the IV must be %d bytes for GCM, got %d", g.NonceSize(), len(iv))
		}
	} else if _, err := rand.Read(iv); err != nil {
		return nil, err
	}
	var aad []byte
	if len(v) > 5 && v[5] != nil {
		aad = v[5].([]byte)
	}
	return g.Seal(append([]byte{}, iv...), iv, v[0].([]byte), aad), nil
})

// aes_decrypt(input, key[, mode[, padding[, aad]]]); try_aes_decrypt is
// NULL where decryption fails.
func bindAESDecrypt(try bool) Binder {
	return rowFnNulls("aes_decrypt", binaryType, ps(pBinary, pBinary, pString, pString, pBinary), func(v []any) (any, error) {
		if v[0] == nil || v[1] == nil {
			return nil, nil
		}
		fail := func(err error) (any, error) {
			if try {
				return nil, nil
			}
			return nil, err
		}
		g, err := aesGCM(v[1].([]byte), v[2:])
		if err != nil {
			return fail(err)
		}
		in := v[0].([]byte)
		if len(in) < g.NonceSize()+g.Overhead() {
			return fail(fmt.Errorf("the input is too short"))
		}
		var aad []byte
		if len(v) > 4 && v[4] != nil {
			aad = v[4].([]byte)
		}
		out, err := g.Open(nil, in[:g.NonceSize()], in[g.NonceSize():], aad)
		if err != nil {
			return fail(fmt.Errorf("decryption failed: wrong key or corrupt input"))
		}
		return out, nil
	})
}
