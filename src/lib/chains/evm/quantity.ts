/** JSON-RPC quantities: the methods keep them hex (rpc-methods.ts); the stages convert what they read. */

export const hex = (n: number) => '0x' + n.toString(16);
export const num = (h: string) => Number(BigInt(h));
