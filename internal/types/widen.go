package types

import "github.com/apache/arrow-go/v18/arrow"

// rank orders the numeric types for implicit widening.
func rank(t arrow.DataType) int {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.UINT8, arrow.UINT16, arrow.INT32:
		return 1
	case arrow.INT64, arrow.UINT32, arrow.UINT64:
		return 2
	case arrow.DECIMAL128:
		return 3
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		return 4
	}
	return 0
}

// Common returns the type both a and b widen to implicitly, the way Spark
// SQL users expect: NULL widens to anything; INT to BIGINT to DECIMAL to
// DOUBLE; DATE to TIMESTAMP; identical nested types to themselves. Any
// other pair needs an explicit CAST and Common reports ok == false.
func Common(a, b arrow.DataType) (arrow.DataType, bool) {
	if a.ID() == arrow.NULL {
		return b, true
	}
	if b.ID() == arrow.NULL {
		return a, true
	}
	a, b = Normalize(a), Normalize(b)
	if arrow.TypeEqual(a, b) {
		return a, true
	}
	ra, rb := rank(a), rank(b)
	if ra > 0 && rb > 0 {
		if ra == 3 && rb == 3 {
			da, db := a.(*arrow.Decimal128Type), b.(*arrow.Decimal128Type)
			scale := max(da.Scale, db.Scale)
			intDigits := max(da.Precision-da.Scale, db.Precision-db.Scale)
			return Decimal(min(38, intDigits+scale), scale), true
		}
		if ra == 3 || rb == 3 {
			d, other := a, rb
			if rb == 3 {
				d, other = b, ra
			}
			if other == 4 {
				return Double, true
			}
			dd := d.(*arrow.Decimal128Type)
			intDigits := int32(10)
			if other == 2 {
				intDigits = 19
			}
			return Decimal(min(38, max(dd.Precision-dd.Scale, intDigits)+dd.Scale), dd.Scale), true
		}
		if ra >= rb {
			return widest(ra), true
		}
		return widest(rb), true
	}
	if IsTemporal(a) && IsTemporal(b) {
		return Timestamp, true
	}
	if a.ID() == arrow.LIST && b.ID() == arrow.LIST {
		e, ok := Common(a.(*arrow.ListType).Elem(), b.(*arrow.ListType).Elem())
		if ok {
			return Array(e), true
		}
	}
	return nil, false
}

func widest(r int) arrow.DataType {
	switch r {
	case 1:
		return Int
	case 2:
		return BigInt
	}
	return Double
}

// CanImplicitlyCast reports whether a value of type from may be used where
// type to is expected without an explicit CAST.
func CanImplicitlyCast(from, to arrow.DataType) bool {
	c, ok := Common(from, to)
	return ok && arrow.TypeEqual(c, Normalize(to))
}
