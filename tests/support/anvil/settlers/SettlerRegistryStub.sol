// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

// What a test needs of 0x's Settler deployer registry (0xProject/0x-settler src/deployer/Deployer.sol):
// its ERC-721 `Transfer(previous instance or 0, new instance, feature)` when a Settler is deployed,
// and `Transfer(removed instance, the one before it or 0, feature)` when one is removed. Its code is
// placed at the registry's address (0x00000000000004533Fe15556B1E086BB1A72cEae), so the logs come
// from there; no CREATE3, no ownership: the test names whichever contract it makes a Settler.
contract SettlerRegistryStub {
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    function name(address previous, address instance, uint256 feature) external {
        emit Transfer(previous, instance, feature);
    }
}
