// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

// Two Uniswap V4 hooks for the anvil scenario, written against the PoolManager's ABI (v4-core
// 1.0) with plain types so that they compile alone: a PoolKey's Currency and IHooks are addresses,
// BalanceDelta and BeforeSwapDelta are int256 (amount0 / specified in the upper 128 bits). Each
// emits the community event for what it does (OpenZeppelin uniswap-hooks' IHookEvents), which is
// how the decoder learns what the swapper really paid or got.

struct PoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

struct SwapParams {
    bool zeroForOne;
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

interface IPoolManagerLite {
    function take(address currency, address to, uint256 amount) external;
    function sync(address currency) external;
    function settle() external payable returns (uint256);
}

interface IERC20Lite {
    function transfer(address to, uint256 amount) external returns (bool);
}

abstract contract HookEvents {
    event HookFee(bytes32 indexed id, address indexed sender, uint128 feeAmount0, uint128 feeAmount1);
    event HookSwap(
        bytes32 indexed id,
        address indexed sender,
        int128 amount0,
        int128 amount1,
        uint128 hookLPfeeAmount0,
        uint128 hookLPfeeAmount1
    );

    IPoolManagerLite public immutable manager;

    constructor(IPoolManagerLite m) {
        manager = m;
    }

    modifier onlyManager() {
        require(msg.sender == address(manager), "not the PoolManager");
        _;
    }

    function poolId(PoolKey calldata key) internal pure returns (bytes32) {
        return keccak256(abi.encode(key));
    }

    receive() external payable {}
}

/// Takes 1% of the unspecified side of every swap (the output of an exact-input swap, the input
/// of an exact-output one) after the pool swapped: address flags AFTER_SWAP | AFTER_SWAP_RETURNS_DELTA.
/// With `announce` false it emits nothing, as many deployed hooks do: only a call trace tells.
contract FeeHook is HookEvents {
    bool public immutable announce;

    constructor(IPoolManagerLite m, bool announce_) HookEvents(m) {
        announce = announce_;
    }

    function afterSwap(address sender, PoolKey calldata key, SwapParams calldata p, int256 delta, bytes calldata)
        external
        onlyManager
        returns (bytes4, int128)
    {
        bool exactIn = p.amountSpecified < 0;
        // The unspecified currency is currency1 for 0->1 exact-in and for 1->0 exact-out.
        bool unspecifiedIsOne = p.zeroForOne == exactIn;
        int128 unspecified = unspecifiedIsOne ? int128(delta) : int128(delta >> 128);
        uint256 size = uint256(uint128(unspecified < 0 ? -unspecified : unspecified));
        uint256 fee = size / 100;
        manager.take(unspecifiedIsOne ? key.currency1 : key.currency0, address(this), fee);
        if (announce) {
            emit HookFee(poolId(key), sender, unspecifiedIsOne ? 0 : uint128(fee), unspecifiedIsOne ? uint128(fee) : 0);
        }
        return (this.afterSwap.selector, int128(int256(fee)));
    }
}

/// Replaces the pool's curve for exact-input swaps: 1 in gives 0.98 out, paid from the hook's
/// own reserves; the pool itself swaps nothing (its Swap event shows 0 and 0). Address flags
/// BEFORE_SWAP | BEFORE_SWAP_RETURNS_DELTA.
contract CurveHook is HookEvents {
    constructor(IPoolManagerLite m) HookEvents(m) {}

    function beforeSwap(address sender, PoolKey calldata key, SwapParams calldata p, bytes calldata)
        external
        onlyManager
        returns (bytes4, int256, uint24)
    {
        require(p.amountSpecified < 0, "exact input only");
        uint256 amountIn = uint256(-p.amountSpecified);
        uint256 amountOut = (amountIn * 98) / 100;
        (address cin, address cout) = p.zeroForOne ? (key.currency0, key.currency1) : (key.currency1, key.currency0);
        // The input becomes the hook's; the output comes from the hook's reserves.
        manager.take(cin, address(this), amountIn);
        manager.sync(cout);
        if (cout == address(0)) {
            manager.settle{value: amountOut}();
        } else {
            require(IERC20Lite(cout).transfer(address(manager), amountOut), "transfer failed");
            manager.settle();
        }
        int128 paid = int128(int256(amountIn));
        int128 got = -int128(int256(amountOut));
        // OpenZeppelin's convention: positive is what the swapper paid in, negative what it got.
        emit HookSwap(poolId(key), sender, p.zeroForOne ? paid : got, p.zeroForOne ? got : paid, 0, 0);
        // BeforeSwapDelta: the hook is owed the input (specified) and owes the output (unspecified).
        int256 d = (int256(amountIn) << 128) | int256(uint256(uint128(got)));
        return (this.beforeSwap.selector, d, 0);
    }
}

/// FeeHook's fee, taken to a treasury (another address, not the hook) and announced nowhere, as
/// hooks that pay a protocol or its deployer do: address flags AFTER_SWAP | AFTER_SWAP_RETURNS_DELTA.
/// The swapper pays it all the same; only a call trace shows where it went.
contract TreasuryFeeHook is HookEvents {
    address public immutable treasury;

    constructor(IPoolManagerLite m, address treasury_) HookEvents(m) {
        treasury = treasury_;
    }

    function afterSwap(address, PoolKey calldata key, SwapParams calldata p, int256 delta, bytes calldata)
        external
        onlyManager
        returns (bytes4, int128)
    {
        bool exactIn = p.amountSpecified < 0;
        bool unspecifiedIsOne = p.zeroForOne == exactIn;
        int128 unspecified = unspecifiedIsOne ? int128(delta) : int128(delta >> 128);
        uint256 fee = uint256(uint128(unspecified < 0 ? -unspecified : unspecified)) / 100;
        manager.take(unspecifiedIsOne ? key.currency1 : key.currency0, treasury, fee);
        return (this.afterSwap.selector, int128(int256(fee)));
    }
}
