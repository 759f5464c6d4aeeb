// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * A Chainlink price feed for tests, with the interface the real one has (AggregatorV2V3Interface
 * on the proxy, phases and round ids as EACAggregatorProxy composes them): a proxy in front of one
 * aggregator per phase. A test pushes rounds with the times it chooses, so a trade's price in force
 * is known by hand. Written here from the published interface; no Chainlink code.
 */
contract TestAggregator {
    struct Round {
        int256 answer;
        uint256 updatedAt;
    }

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt);

    uint8 public immutable decimals;
    string public description;
    /** A round asked that does not exist: revert (as the older aggregators do) or answer zeros (as OCR ones do). */
    bool public immutable zerosForMissing;
    Round[] private rounds;

    constructor(uint8 _decimals, string memory _description, bool _zerosForMissing) {
        decimals = _decimals;
        description = _description;
        zerosForMissing = _zerosForMissing;
    }

    function version() external pure returns (uint256) {
        return 4;
    }

    /** Appends rounds; round ids start at 1, as an aggregator's do. */
    function push(int256[] calldata answers, uint256[] calldata updatedAts) external {
        require(answers.length == updatedAts.length, "lengths");
        for (uint256 i = 0; i < answers.length; i++) {
            rounds.push(Round(answers[i], updatedAts[i]));
            emit NewRound(rounds.length, msg.sender, updatedAts[i]);
            emit AnswerUpdated(answers[i], rounds.length, updatedAts[i]);
        }
    }

    function getRoundData(uint80 roundId) public view returns (uint80, int256, uint256, uint256, uint80) {
        if (roundId == 0 || roundId > rounds.length) {
            require(zerosForMissing, "No data present");
            return (roundId, 0, 0, 0, roundId);
        }
        Round memory r = rounds[roundId - 1];
        return (roundId, r.answer, r.updatedAt, r.updatedAt, roundId);
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return getRoundData(uint80(rounds.length));
    }
}

contract TestFeedProxy {
    uint16 public phaseId;
    mapping(uint16 => address) public phaseAggregators;

    /** A new aggregator takes over: the next phase (EACAggregatorProxy's confirmAggregator). */
    function setAggregator(address aggregator) external {
        phaseId += 1;
        phaseAggregators[phaseId] = aggregator;
    }

    function aggregator() external view returns (address) {
        return phaseAggregators[phaseId];
    }

    function decimals() external view returns (uint8) {
        return TestAggregator(phaseAggregators[phaseId]).decimals();
    }

    function description() external view returns (string memory) {
        return TestAggregator(phaseAggregators[phaseId]).description();
    }

    /** Round ids as the proxy writes them: (phaseId << 64) | the aggregator's round id. */
    function getRoundData(uint80 roundId) external view returns (uint80, int256, uint256, uint256, uint80) {
        uint16 phase = uint16(roundId >> 64);
        uint64 aggregatorRound = uint64(roundId);
        address a = phaseAggregators[phase];
        require(a != address(0), "No data present");
        (, int256 answer, uint256 startedAt, uint256 updatedAt, ) = TestAggregator(a).getRoundData(aggregatorRound);
        return (roundId, answer, startedAt, updatedAt, roundId);
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        (uint80 r, int256 answer, uint256 startedAt, uint256 updatedAt, ) = TestAggregator(phaseAggregators[phaseId]).latestRoundData();
        uint80 id = uint80((uint256(phaseId) << 64) | r);
        return (id, answer, startedAt, updatedAt, id);
    }
}
