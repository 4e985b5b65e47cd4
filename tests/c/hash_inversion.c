/* A 64-bit hash inverted by a branch: multiplication chains that Z3 4.8.12
 * does not decide in minutes, and whose check ignored a solver timeout
 * parameter (137 s under --timeout 3). Used by crates/cli/tests/timeout.rs. */
unsigned long long mix(unsigned long long x, unsigned long long y)
{
    unsigned long long h = x * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
    h *= (y | 1ull) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 32;
    h *= 0x94D049BB133111EBull;
    return h ^ (h >> 31);
}

int hard(unsigned long long x, unsigned long long y)
{
    if (mix(mix(x, y), y ^ x) % 1000000007ull == 123456789ull)
        return 1;
    return 0;
}
