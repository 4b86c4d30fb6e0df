// SPDX-License-Identifier: MIT
// The development chain's stand-in for the token that backs CREDIT (USDT on BNB Smart Chain in production):
// OpenZeppelin's ERC-20 with the decimals chosen at deployment (6 and 18 are both tested), its whole supply minted
// to one holder that funds the demo members. Compiled by scripts/contracts.ts into server/chain/artifacts/.
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

contract DevToken is ERC20 {
    uint8 private immutable _tokenDecimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, address holder, uint256 supply) ERC20(name_, symbol_) {
        _tokenDecimals = decimals_;
        _mint(holder, supply);
    }

    function decimals() public view override returns (uint8) {
        return _tokenDecimals;
    }
}
