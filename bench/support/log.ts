/** Progress lines on stdout with a time stamp and the benchmark's name. */
export function benchLogger(name: string): (message: string) => void {
  return (message) => console.log(`[${name} ${new Date().toISOString().slice(11, 19)}] ${message}`);
}
