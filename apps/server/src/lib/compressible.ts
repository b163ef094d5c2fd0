/**
 * The web-asset files worth compressing, by name: the web apps' build writes brotli / gzip copies
 * of them (scripts/precompress.ts) and the server sends those copies by `Accept-Encoding`
 * (`webAssetOptions`). One list for both, so that what is built is what is served.
 */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|ico|webmanifest)$/;
