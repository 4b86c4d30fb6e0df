/** The ERC-20 Transfer event: a top-up is one of the token's, to the treasury (docs/API.md, "Credit on chain"). */
import { parseAbiItem } from 'viem';

export const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
