// SPDX-License-Identifier: MIT
// A smart-contract wallet for the tests (tests/server/smartAccountSignIn.test.ts), never deployed by the server: an
// ERC-1271 account whose one owner key signs for it (the owner's EIP-191 signature of a message is the account's),
// and which the owner can make call other contracts (a token transfer: a top-up sent from the account). Deployed
// through SmartAccountFactory with CREATE2, so its address is known before it exists (ERC-6492).
pragma solidity ^0.8.20;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

contract SmartAccount is IERC1271 {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError error, ) = ECDSA.tryRecoverCalldata(hash, signature);
        if (error == ECDSA.RecoverError.NoError && signer == owner) return IERC1271.isValidSignature.selector;
        return 0xffffffff;
    }

    function execute(address target, bytes calldata data) external returns (bytes memory) {
        require(msg.sender == owner, "SmartAccount: not the owner");
        (bool ok, bytes memory result) = target.call(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        return result;
    }
}
