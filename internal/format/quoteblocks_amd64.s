#include "textflag.h"

// func quoteBlocks(dst []uint64, b []byte) (backslash, high bool)
TEXT ·quoteBlocks(SB), NOSPLIT, $0-50
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ b_base+24(FP), SI
	MOVQ $0x2222222222222222, AX
	MOVQ AX, X0
	PUNPCKLQDQ X0, X0 // 16 quotes
	MOVQ $0x5c5c5c5c5c5c5c5c, AX
	MOVQ AX, X5
	PUNPCKLQDQ X5, X5 // 16 backslashes
	PXOR X6, X6       // backslashes seen
	PXOR X8, X8       // bytes or-ed: the high bits say non-ASCII

loop:
	TESTQ CX, CX
	JZ    done
	MOVOU 0(SI), X1
	MOVOU 16(SI), X2
	MOVOU 32(SI), X3
	MOVOU 48(SI), X4
	POR   X1, X8
	POR   X2, X8
	POR   X3, X8
	POR   X4, X8
	MOVO  X1, X7
	PCMPEQB X5, X7
	POR   X7, X6
	MOVO  X2, X7
	PCMPEQB X5, X7
	POR   X7, X6
	MOVO  X3, X7
	PCMPEQB X5, X7
	POR   X7, X6
	MOVO  X4, X7
	PCMPEQB X5, X7
	POR   X7, X6
	PCMPEQB X0, X1
	PCMPEQB X0, X2
	PCMPEQB X0, X3
	PCMPEQB X0, X4
	PMOVMSKB X1, AX
	PMOVMSKB X2, BX
	PMOVMSKB X3, DX
	PMOVMSKB X4, R8
	SHLQ $16, BX
	SHLQ $32, DX
	SHLQ $48, R8
	ORQ  BX, AX
	ORQ  DX, AX
	ORQ  R8, AX
	MOVQ AX, (DI)
	ADDQ $64, SI
	ADDQ $8, DI
	DECQ CX
	JMP  loop

done:
	PMOVMSKB X6, AX
	TESTL AX, AX
	SETNE backslash+48(FP)
	PMOVMSKB X8, AX
	TESTL AX, AX
	SETNE high+49(FP)
	RET
