# information sets x actions x tables x bytes, in terabytes (10**12 bytes)
my_terabytes = 3.19e14 * 3 * 2 * 8 / 1e12  # about 15,312 TB, i.e. 15 petabytes
