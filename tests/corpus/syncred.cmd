buffer in s32 1000 = file in.bin
buffer out s32 12
buffer partial s32 4
buffer ticket u32 1 = fill 0
buffer total s32 1
launch _Z7syncredPKiPiS1_PjS1_i<<<4, 256>>>(in, out, partial, ticket, total, 1000)
dump out out.bin
dump partial partial.bin
dump ticket ticket.bin
dump total total.bin
