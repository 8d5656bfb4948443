package functions

import (
	"net/netip"
	"strings"

	"sluice/internal/types"
)

// ppl_cidrmatch(ip, cidr) is PPL's CIDRMATCH: whether the IPv4 or IPv6
// address lies in the block; NULL when either is not one.
var bindPPLCidrmatch = rowFn("ppl_cidrmatch", types.Boolean, ps(pString, pString), func(v []any) (any, error) {
	ip, err := netip.ParseAddr(strings.TrimSpace(v[0].(string)))
	if err != nil {
		return nil, nil
	}
	p, err := netip.ParsePrefix(strings.TrimSpace(v[1].(string)))
	if err != nil {
		return nil, nil
	}
	return p.Contains(ip.Unmap()) || p.Contains(ip), nil
})
