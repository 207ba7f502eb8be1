; The IR that every bench-llvm-tool linked by scripts/bench optimises and compiles for a few
; targets: a loop, a call, a switch and a global, enough to exercise the O2 pipeline and the
; backends.
@table = internal constant [4 x i32] [i32 3, i32 1, i32 4, i32 1]

define internal i32 @square(i32 %x) {
  %r = mul i32 %x, %x
  ret i32 %r
}

define i32 @sum_squares(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %sq = call i32 @square(i32 %i)
  %acc.next = add i32 %acc, %sq
  %next = add i32 %i, 1
  %done = icmp sge i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %acc.next
}

define i32 @pick(i32 %k) {
entry:
  switch i32 %k, label %other [ i32 0, label %a
                                i32 1, label %b
                                i32 2, label %c ]
a:
  ret i32 10
b:
  %p = getelementptr [4 x i32], ptr @table, i32 0, i32 2
  %v = load i32, ptr %p
  ret i32 %v
c:
  %s = call i32 @sum_squares(i32 %k)
  ret i32 %s
other:
  ret i32 -1
}
