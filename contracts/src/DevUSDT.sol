// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title The devnet's USDT: a TRC-20 that runs what TRON's TetherToken runs.
/// @notice Devnet and tests only. Like the real token (TetherToken: Pausable,
/// StandardTokenWithFees, BlackList): 6 decimals; `transfer` returns `false` even when it
/// succeeds (mainnet's TetherToken declares `returns (bool)` but never returns, so callers see
/// 32 zero bytes) while `transferFrom` returns `true`; an owner who issues and redeems,
/// pauses, blacklists and may set a transfer fee (zero, as on mainnet).
/// @dev Energy is part of the likeness: a transfer makes TetherToken's storage reads (paused,
/// the sender's blacklist entry, deprecated, the fee rate and cap, both balances) and writes
/// (both balances), computes the fee, and logs one Transfer, so that at mainnet USDT's
/// dynamic-energy factor (×4.4) it costs what mainnet's does: 64,285 energy to a holder and
/// 130,285 to a new one. Storage follows TetherToken's order. Stricter than mainnet in one
/// way: a blacklisted address can neither send nor receive, so tests can show what happens
/// when a withdrawal's recipient is frozen. Anything built on it must judge a transfer by
/// balances, never by the return value.
contract DevUSDT {
    string public constant name = "Tether USD";
    string public constant symbol = "USDT";
    uint8 public constant decimals = 6;
    uint256 private constant MAX_UINT = type(uint256).max;

    // Ownable
    address public owner;
    // BasicToken with fees
    mapping(address => uint256) public balanceOf;
    uint256 public basisPointsRate;
    uint256 public maximumFee;
    // StandardToken
    mapping(address => mapping(address => uint256)) public allowance;
    // Pausable
    bool public paused;
    // BlackList
    mapping(address => bool) public isBlackListed;
    // TetherToken
    address public upgradedAddress;
    bool public deprecated;
    uint256 public totalSupply;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Issue(uint256 amount);
    event Redeem(uint256 amount);
    event Pause();
    event Unpause();
    event AddedBlackList(address user);
    event RemovedBlackList(address user);
    event Params(uint256 feeBasisPoints, uint256 maxFee);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    modifier onlyOwner() {
        require(msg.sender == owner, "USDT: caller is not the owner");
        _;
    }

    modifier whenNotPaused() {
        require(!paused, "USDT: paused");
        _;
    }

    /// TetherToken's guard against short-address calls.
    modifier onlyPayloadSize(uint256 size) {
        require(msg.data.length >= size + 4, "USDT: short payload");
        _;
    }

    /// The devnet never upgrades its USDT; TetherToken forwards to the upgraded token here.
    modifier notDeprecated() {
        require(!deprecated, "USDT: deprecated");
        _;
    }

    constructor(uint256 initialSupply) {
        owner = msg.sender;
        totalSupply = initialSupply;
        balanceOf[msg.sender] = initialSupply;
        emit Transfer(address(0), msg.sender, initialSupply);
    }

    /// @return Always false, as TRON's USDT: success is the balance change, not this value.
    function transfer(address to, uint256 value)
        external
        whenNotPaused
        onlyPayloadSize(2 * 32)
        returns (bool)
    {
        require(!isBlackListed[msg.sender], "USDT: sender is blacklisted");
        require(!deprecated, "USDT: deprecated");
        _transfer(msg.sender, to, value);
        return false;
    }

    function transferFrom(address from, address to, uint256 value)
        external
        whenNotPaused
        onlyPayloadSize(3 * 32)
        returns (bool)
    {
        require(!isBlackListed[from], "USDT: sender is blacklisted");
        require(!deprecated, "USDT: deprecated");
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "USDT: allowance too low");
        if (allowed < MAX_UINT) {
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    /// TRON USDT's `approve` (TetherToken 0.4.25 over OpenZeppelin 1.x's StandardToken; java-tron
    /// keeps a copy of its sources in framework/src/test/resources/soliditycode/USDT/): it
    /// sets any value over any other, with no zero-first rule (unlike Ethereum's 2017 USDT), so
    /// an allowance left at one base unit is rewritten (5,000 of storage energy) rather than
    /// filled again (20,000). Its `transferFrom` leaves an unlimited allowance as it is.
    function approve(address spender, uint256 value)
        external
        whenNotPaused
        notDeprecated
        onlyPayloadSize(2 * 32)
        returns (bool)
    {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    /// TetherToken's fee: `basisPointsRate` of the value, at most `maximumFee`.
    function calcFee(uint256 value) public view returns (uint256) {
        uint256 fee = _div(_mul(value, basisPointsRate), 10000);
        if (fee > maximumFee) {
            fee = maximumFee;
        }
        return fee;
    }

    function setParams(uint256 newBasisPoints, uint256 newMaxFee) external onlyOwner {
        // TetherToken's own caps: under 0.2% and under 50 USDT.
        require(newBasisPoints < 20, "USDT: fee rate too high");
        require(newMaxFee < 50 * 10 ** uint256(decimals), "USDT: fee cap too high");
        basisPointsRate = newBasisPoints;
        maximumFee = newMaxFee;
        emit Params(basisPointsRate, maximumFee);
    }

    function issue(uint256 amount) external onlyOwner {
        totalSupply += amount;
        balanceOf[owner] += amount;
        emit Issue(amount);
        emit Transfer(address(0), owner, amount);
    }

    function redeem(uint256 amount) external onlyOwner {
        require(balanceOf[owner] >= amount, "USDT: redeem exceeds balance");
        totalSupply -= amount;
        balanceOf[owner] -= amount;
        emit Redeem(amount);
        emit Transfer(owner, address(0), amount);
    }

    function pause() external onlyOwner {
        paused = true;
        emit Pause();
    }

    function unpause() external onlyOwner {
        paused = false;
        emit Unpause();
    }

    function addBlackList(address user) external onlyOwner {
        isBlackListed[user] = true;
        emit AddedBlackList(user);
    }

    function removeBlackList(address user) external onlyOwner {
        isBlackListed[user] = false;
        emit RemovedBlackList(user);
    }

    function getBlackListStatus(address user) external view returns (bool) {
        return isBlackListed[user];
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "USDT: new owner is the zero address");
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    /// StandardTokenWithFees' transfer: the fee to the owner, the rest to `to`.
    function _transfer(address from, address to, uint256 value) internal {
        require(!isBlackListed[to], "USDT: recipient is blacklisted");
        require(to != address(0), "USDT: transfer to the zero address");
        uint256 fee = calcFee(value);
        uint256 sendAmount = _sub(value, fee);
        require(balanceOf[from] >= value, "USDT: transfer amount exceeds balance");
        balanceOf[from] = _sub(balanceOf[from], value);
        balanceOf[to] = _add(balanceOf[to], sendAmount);
        if (fee > 0) {
            balanceOf[owner] = _add(balanceOf[owner], fee);
            emit Transfer(from, owner, fee);
        }
        emit Transfer(from, to, sendAmount);
    }

    // TetherToken's SafeMath, as internal functions: the checks it makes, in the order it
    // makes them.
    function _mul(uint256 a, uint256 b) internal pure returns (uint256 c) {
        if (a == 0) {
            return 0;
        }
        unchecked {
            c = a * b;
        }
        assert(c / a == b);
    }

    function _div(uint256 a, uint256 b) internal pure returns (uint256) {
        return a / b;
    }

    function _sub(uint256 a, uint256 b) internal pure returns (uint256) {
        assert(b <= a);
        unchecked {
            return a - b;
        }
    }

    function _add(uint256 a, uint256 b) internal pure returns (uint256 c) {
        unchecked {
            c = a + b;
        }
        assert(c >= a);
    }
}
