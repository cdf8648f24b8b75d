/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and data files it loads from its own package directory; pg has optional native bits.
  serverExternalPackages: ['@electric-sql/pglite', 'pg'],
  poweredByHeader: false,
  reactStrictMode: true,
};

module.exports = nextConfig;
