// SPDX-License-Identifier: MIT
// Deploys SmartAccount with CREATE2 (tests only): the account's address follows from the factory, the salt and the
// owner, so a wallet can sign for it before it exists and wrap the signature with this factory's call (ERC-6492).
pragma solidity ^0.8.20;

import {SmartAccount} from "./SmartAccount.sol";

contract SmartAccountFactory {
    function deploy(address owner, bytes32 salt) external returns (SmartAccount) {
        return new SmartAccount{salt: salt}(owner);
    }
}
