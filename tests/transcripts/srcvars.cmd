# Source-level variables (types.cu, nvcc -G): locals in registers and in the local depot,
# arrays, structs, unions, enums, __half, __shared__ and __constant__ data, types, listing.
buffer in f32 64 = iota
buffer out f32 64
break types.cu:58
launch kern<<<1, 32>>>(in, out, {3, 0}, 40)
cuda thread (5,0,0)
print idx
print loc
print loc[3]
print lp[4]
print mat[1][2]
print cell
print cell.p
print cell.w[2] + cell.p.a
print bits
print col
print h
print q.a
print tile[5]
print tile[0]
print *sp
print ctab
print gcount
print n
print in[idx]
print sizeof(cell)
print &loc[2] - &loc[0]
whatis cell
ptype cell
whatis idx
ptype idx
ptype Color
ptype lp
whatis mat
info address idx
info address gcount
info line
list
list -
list 27,31
