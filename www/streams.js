// A stream read to its end, but only so far: for links (a packed state, unpacked) and for a
// `src=` file. Both load on demand (links.js, own.js), and so does this.

/** Every byte of a readable `stream`, or `null` (the rest cancelled) once it passes `limit`. */
export async function readCapped(stream, limit) {
  const reader = stream.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new Uint8Array(await new Blob(chunks).arrayBuffer());
}
